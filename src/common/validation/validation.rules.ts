/**
 * Which of a field's failed constraints a client is told about. A value of the wrong type fails every
 * rule about its range or format too ("2.5" for a number is also "not ≥ 0" and "at most 2 decimals"),
 * which only hides the one thing to fix: so a missing field reports that it is missing, a mistyped one
 * its type, and only a value of the right type its range and format.
 */
const MISSING = ['isDefined'];
const TYPE = ['isInt', 'isNumber', 'isString', 'isBoolean', 'isArray', 'isObject', 'nestedValidation'];

export function essentialConstraints(constraints: Record<string, string>): string[] {
  const failed = Object.keys(constraints);
  for (const group of [MISSING, TYPE]) {
    const hits = failed.filter((name) => group.includes(name));
    if (hits.length) return hits.map((name) => constraints[name]);
  }
  return Object.values(constraints);
}
