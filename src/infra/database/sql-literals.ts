import { createRequire } from 'node:module';

// The driver's own conversion of an array parameter to PostgreSQL's array text (pg/lib/utils).
const { prepareValue } = createRequire(__filename)('pg/lib/utils') as {
  prepareValue: (v: unknown) => unknown;
};

/**
 * Parameters written into SQL as literals, for the one statement that must travel with its COMMIT in a
 * single round trip (PostgreSQL's simple query protocol, which allows several statements, takes no
 * parameters). Text is quoted as the driver's `escapeLiteral` quotes it (`quoteLiteral`); numbers must be
 * finite; a plain object is written as its JSON text and an array as PostgreSQL's array text, both exactly as
 * the driver would send them as parameters; anything else is refused.
 * Placeholders are `$1`…`$n`, as in a parameterised statement.
 */
export function inlineParameters(sql: string, values: readonly unknown[]): string {
  const { texts, slots } = template(sql);
  let out = texts[0];
  for (let i = 0; i < slots.length; i++) {
    const index = slots[i];
    if (index < 0 || index >= values.length) throw new RangeError(`no value for $${index + 1}`);
    out += literal(values[index]) + texts[i + 1];
  }
  return out;
}

/**
 * The parameters of a statement with placeholders `$1`…`$n` written as literals, in order (`EXECUTE`'s
 * arguments); null when some placeholder below the highest is never used (PostgreSQL could not tell its
 * type when preparing the statement).
 */
export function parameterLiterals(sql: string, values: readonly unknown[]): string[] | null {
  const { slots } = template(sql);
  const count = slots.length ? Math.max(...slots) + 1 : 0;
  if (count > values.length) throw new RangeError(`no value for $${count}`);
  for (let i = 0; i < count; i++) if (!slots.includes(i)) return null;
  return values.slice(0, count).map(literal);
}

/**
 * Text as an SQL literal, exactly as pg's `escapeLiteral` writes it (quotes doubled; text holding a backslash
 * written ` E'…'` with the backslashes doubled), built by `replaceAll` rather than the driver's
 * character-by-character concatenation: a sale writes the gateway's report (a few KB of JSON) this way, and
 * the driver's loop allocated ~35 KB a confirmation, about a thirteenth of all the app allocates for one.
 */
export function quoteLiteral(text: string): string {
  if (!text.includes('\\')) return `'${text.replaceAll("'", "''")}'`;
  return ` E'${text.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
}

/** A statement split at its placeholders once: the same few statements are written many times a second. */
const TEMPLATES = new Map<string, { texts: string[]; slots: number[] }>();

function template(sql: string): { texts: string[]; slots: number[] } {
  let found = TEMPLATES.get(sql);
  if (!found) {
    const parts = sql.split(/\$(\d+)/);
    found = {
      texts: parts.filter((_p, i) => i % 2 === 0),
      slots: parts.filter((_p, i) => i % 2 === 1).map((d) => Number(d) - 1),
    };
    if (TEMPLATES.size < 1000) TEMPLATES.set(sql, found);
  }
  return found;
}

function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
    return value < 0 ? `(${value})` : String(value);
  }
  if (typeof value === 'string') return quoteLiteral(value);
  if (value instanceof Date) return quoteLiteral(value.toISOString());
  if (Array.isArray(value)) return quoteLiteral(prepareValue(value) as string);
  if (typeof value === 'object') return quoteLiteral(JSON.stringify(value));
  throw new TypeError(`cannot write a ${typeof value} as an SQL literal`);
}
