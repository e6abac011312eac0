/**
 * Parameters written into SQL as literals, for the one statement that must travel with its COMMIT in a
 * single round trip (PostgreSQL's simple query protocol, which allows several statements, takes no
 * parameters). Text goes through the driver's `escapeLiteral`; numbers must be finite; a plain object
 * is written as its JSON text (as the driver sends it); arrays and anything else are refused.
 * Placeholders are `$1`…`$n`, as in a parameterised statement.
 */
export function inlineParameters(
  sql: string,
  values: readonly unknown[],
  escapeLiteral: (text: string) => string,
): string {
  return sql.replace(/\$(\d+)/g, (_match, digits: string) => {
    const index = Number(digits) - 1;
    if (index < 0 || index >= values.length) throw new RangeError(`no value for $${digits}`);
    return literal(values[index], escapeLiteral);
  });
}

function literal(value: unknown, escapeLiteral: (text: string) => string): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
    return value < 0 ? `(${value})` : String(value);
  }
  if (typeof value === 'string') return escapeLiteral(value);
  if (value instanceof Date) return escapeLiteral(value.toISOString());
  if (typeof value === 'object' && !Array.isArray(value)) return escapeLiteral(JSON.stringify(value));
  throw new TypeError(`cannot write a ${typeof value} as an SQL literal`);
}
