/**
 * Money is integer minor units (cents) inside the service; major units ("12.10") only at the edges
 * (DESIGN §6). Conversions go through decimal text, never through floating-point arithmetic, so
 * "12.10" is 1210 and not 1209.9999999999998.
 */

const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;

/** The exact decimal text of a finite number or numeric string, e.g. 12.1 → "12.1". */
function decimalText(value: number | string): string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`${value} is not a finite amount`);
    return Object.is(value, -0) ? '0' : String(value);
  }
  return value.trim();
}

/**
 * `value` × 10^`places` as an exact bigint; RangeError when `value` has more than `places` decimals
 * (other than trailing zeros) or is not a plain decimal (exponent forms are refused: such magnitudes
 * are never valid amounts or percentages here).
 */
export function scaleDecimal(value: number | string, places: number): bigint {
  const match = DECIMAL.exec(decimalText(value));
  if (!match) throw new RangeError(`${String(value)} is not a decimal amount`);
  const [, sign, whole, fraction = ''] = match;
  const trimmed = fraction.replace(/0+$/, '');
  if (trimmed.length > places) throw new RangeError(`${String(value)} has more than ${places} decimals`);
  const scaled = BigInt(whole + trimmed.padEnd(places, '0'));
  return sign ? -scaled : scaled;
}

/** Whether `value` is written with at most `places` decimals (trailing zeros aside). */
export function hasAtMostDecimals(value: number | string, places: number): boolean {
  try {
    scaleDecimal(value, places);
    return true;
  } catch {
    return false;
  }
}

/** Major units to cents, exactly: 12.1 → 1210, "0.07" → 7; RangeError for 12.345 or past 2^53. */
export function toMinorUnits(major: number | string): number {
  const cents = scaleDecimal(major, 2);
  if (cents > BigInt(Number.MAX_SAFE_INTEGER) || cents < -BigInt(Number.MAX_SAFE_INTEGER))
    throw new RangeError(`${String(major)} is too large an amount`);
  return Number(cents);
}

/** Cents to the major-units number of the same value (1210 → 12.1), parsed from exact decimal text. */
export function toMajorUnits(minor: number): number {
  return Number(formatMajor(minor));
}

/** Cents as major-units text with two decimals (1210 → "12.10", -5 → "-0.05"), as gateways want it. */
export function formatMajor(minor: number): string {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`${minor} is not a whole number of cents`);
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** numerator / denominator rounded half away from zero (half-up for amounts) to a whole number. */
export function roundHalfUp(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n) throw new RangeError('denominator must be positive');
  const negative = numerator < 0n;
  const abs = negative ? -numerator : numerator;
  const rounded = (2n * abs + denominator) / (2n * denominator);
  return negative ? -rounded : rounded;
}

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/** An ISO 4217 code as the runtime's ICU data knows it ("GBP", "EUR"); upper case only. */
export function isCurrencyCode(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Z]{3}$/.test(value) && CURRENCIES.has(value);
}
