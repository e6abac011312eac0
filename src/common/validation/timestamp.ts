import { isISO8601, ValidateBy } from 'class-validator';

/**
 * An ISO 8601 date or date-time that a JavaScript `Date` reads (`2027-01-01T00:00:00Z`, `2027-01-01`, with
 * fractions and offsets). ISO 8601 also has forms nothing after validation reads (`+2026-06-01T00:00:00Z`,
 * the week date `2026-W23-1`, the basic `20260601`, a decimal comma, an hour alone): passed by the format
 * check alone, they became an Invalid Date and a 500 where they were stored.
 */
export function readsAsTimestamp(value: unknown, strictSeparator = false): boolean {
  return (
    typeof value === 'string' &&
    isISO8601(value, { strict: true, strictSeparator }) &&
    Number.isFinite(Date.parse(value))
  );
}

/** A field that must be a timestamp (`readsAsTimestamp`), refused with `message`. */
export function IsTimestamp(message: string, o: { strictSeparator?: boolean } = {}): PropertyDecorator {
  return ValidateBy({
    name: 'isTimestamp',
    validator: {
      validate: (value: unknown) => readsAsTimestamp(value, o.strictSeparator),
      defaultMessage: () => message,
    },
  });
}
