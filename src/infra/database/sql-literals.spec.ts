import { escapeLiteral } from 'pg';
import { inlineParameters, parameterLiterals, quoteLiteral } from './sql-literals.js';

describe('inlineParameters', () => {
  it('writes each placeholder as a literal of its value, $10 not mistaken for $1', () => {
    const values = [1, 'a', null, true, -2, 6, 7, 8, 9, 'ten'];
    expect(inlineParameters('SELECT $1, $2, $3, $4, $5, $10', values)).toBe(
      "SELECT 1, 'a', NULL, TRUE, (-2), 'ten'",
    );
  });

  it('escapes quotes and backslashes in text so it stays one literal', () => {
    // pg's escapeLiteral writes text holding a backslash as E'…' (after a space), doubling both.
    expect(inlineParameters('SELECT $1', ["O'Brien \\ '); DROP TABLE x; --"])).toBe(
      "SELECT  E'O''Brien \\\\ ''); DROP TABLE x; --'",
    );
  });

  it('writes a plain object as its JSON text', () => {
    expect(inlineParameters('SELECT $1::jsonb', [{ a: "it's" }])).toBe(`SELECT '{"a":"it''s"}'::jsonb`);
  });

  it('writes an array as PostgreSQL array text, elements quoted and escaped as the driver does', () => {
    expect(
      inlineParameters('SELECT $1::text[], $2::int[]', [
        ['a', "b'c", null],
        [1, 2],
      ]),
    ).toBe(`SELECT '{"a","b''c",NULL}'::text[], '{"1","2"}'::int[]`);
  });

  it('writes dates as ISO text', () => {
    expect(inlineParameters('SELECT $1', [new Date('2030-01-02T03:04:05.000Z')])).toBe(
      "SELECT '2030-01-02T03:04:05.000Z'",
    );
  });

  it('refuses what it cannot write safely, and a placeholder without a value', () => {
    expect(() => inlineParameters('SELECT $1', [Number.NaN])).toThrow(RangeError);
    expect(() => inlineParameters('SELECT $1', [Symbol('x')])).toThrow(TypeError);
    expect(() => inlineParameters('SELECT $2', [1])).toThrow(RangeError);
  });
});

describe('parameterLiterals', () => {
  it("answers each placeholder's literal in order, leaving out values past the highest placeholder", () => {
    expect(parameterLiterals('SELECT $2, $1, $2', ['a', 3, 'unused'])).toEqual(["'a'", '3']);
  });

  it('answers null when a placeholder below the highest is never used (its type could not be inferred)', () => {
    expect(parameterLiterals('SELECT $1, $3', [1, 2, 3])).toBeNull();
  });

  it('refuses a statement that names more placeholders than there are values', () => {
    expect(() => parameterLiterals('SELECT $2', [1])).toThrow(RangeError);
  });
});

describe('quoteLiteral', () => {
  it.each([
    '',
    'plain',
    "O'Brien",
    "''",
    'back\\slash',
    "both ' and \\ and '\\'",
    '\\',
    '{"report":"it\'s \\"fine\\"","amount":"12.50"}',
    'ünïcødé ✓ 😀',
    'line\nbreak\ttab',
  ])('writes %j exactly as the driver does', (text) => {
    expect(quoteLiteral(text)).toBe(escapeLiteral(text));
  });

  it('agrees with the driver on a thousand random texts of quotes, backslashes and letters', () => {
    const alphabet = ["'", '\\', 'a', 'Z', ' ', '"', 'é', '😀', '\n', 'E'];
    let seed = 42;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let n = 0; n < 1000; n++) {
      const text = Array.from({ length: next() % 40 }, () => alphabet[next() % alphabet.length]).join('');
      expect(quoteLiteral(text)).toBe(escapeLiteral(text));
    }
  });
});
