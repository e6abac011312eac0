import { MAX_JSON_DEPTH, nulFields, refusedJson } from './json-body.rules.js';

/** The depth rule alone: whether `refusedJson` refuses the text as nesting too deep. */
const nestsDeeperThan = (text: Uint8Array | string, limit: number): boolean =>
  refusedJson(text, limit) === 'too-deep';

const nested = (levels: number): string => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

describe('how deep a JSON body nests', () => {
  it('allows bodies up to the limit and refuses one level more', () => {
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(nestsDeeperThan(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
  });

  it('counts arrays and objects alike, and siblings do not add up', () => {
    expect(nestsDeeperThan('[[{"a":[1]}]]', 4)).toBe(false);
    expect(nestsDeeperThan('[[{"a":[[1]]}]]', 4)).toBe(true);
    expect(nestsDeeperThan(`[${'[1],'.repeat(1000)}[2]]`, 2)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(nestsDeeperThan(`{"a":"${'{['.repeat(100)}"}`, 1)).toBe(false);
    expect(nestsDeeperThan(`{"a":"\\"{{{{","b":"\\\\"}`, 1)).toBe(false);
    expect(nestsDeeperThan(`{"a":"\\\\",  "b":{"c":{}}}`, 2)).toBe(true);
  });

  it('reads UTF-8 bytes as they come, multi-byte characters included', () => {
    const text = `{"name":"Zoë 🎟️ ${'{'.repeat(10)}","x":[[1]]}`;
    expect(nestsDeeperThan(Buffer.from(text, 'utf8'), 3)).toBe(false);
    expect(nestsDeeperThan(Buffer.from(text, 'utf8'), 2)).toBe(true);
  });

  it('reads 5,000 levels (about 50 KB) without recursion', () => {
    const body = Buffer.from('['.repeat(5000) + ']'.repeat(5000));
    expect(nestsDeeperThan(body, MAX_JSON_DEPTH)).toBe(true);
  });

  it('refuses a string holding the NUL character, and only that', () => {
    expect(refusedJson('{"a":"x\\u0000y"}', 4)).toBe('nul');
    expect(refusedJson(Buffer.from('{"a":["ok","\\u0000"]}'), 4)).toBe('nul');
    expect(refusedJson('{"a":"\\\\u0000"}', 4)).toBeNull(); // an escaped backslash, then the text u0000
    expect(refusedJson('{"a":"\\u00001","b":"\\u0001"}', 4)).toBe('nul');
    expect(refusedJson('{"a":"\\u0020","u0000":1}', 4)).toBeNull();
    expect(refusedJson('{"a":"ok"}', 4)).toBeNull();
  });

  it('names the fields holding the NUL character as validation names fields', () => {
    const body = {
      name: 'Sam\u0000',
      profile: { city: 'ok', first_name: '\u0000' },
      items: [{ sku: 'a\u0000' }],
    };
    expect(nulFields(body)).toEqual(['name', 'profile.first_name', 'items.0.sku']);
    expect(nulFields({ a: { 'k\u0000': 1 } })).toEqual(['a']);
    expect(nulFields('\u0000')).toEqual(['body']);
    expect(nulFields({ a: 'fine' })).toEqual([]);
  });
});
