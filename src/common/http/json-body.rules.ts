/**
 * How deep a JSON body may nest objects and arrays. The deepest body this service takes is endpoint 20's
 * `payload.schema[]` (3 levels) and free-form `metadata` objects; 32 leaves ten times that room, while every
 * recursive walker a body meets afterwards (class-transformer, class-validator, the idempotency hash, the
 * logger, PostgreSQL's jsonb) stays far from its stack limit. class-transformer alone overflowed at about
 * 2,000 levels, which answered 500.
 */
export const MAX_JSON_DEPTH = 32;

const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

const LETTER_U = 0x75; // u
const ZERO = 0x30; // 0

/** Why a JSON body is refused before it is parsed, if it is. */
export type JsonRefusal = 'too-deep' | 'nul';

/**
 * Whether a JSON text must be refused before anything parses it, read in one pass without recursion:
 * `too-deep` when it nests objects and arrays deeper than `limit` (brackets inside strings do not count),
 * `nul` when a string holds the NUL character (`\u0000`), which PostgreSQL can store in neither text nor
 * jsonb: taken, it would fail whichever statement met it first (a 500, or a webhook's job failing for
 * ever). The text need not be valid JSON (the parser refuses that afterwards). UTF-8 bytes can be given as
 * they are: every byte of a multi-byte character is ≥ 0x80, so none is mistaken for a bracket, a quote or
 * an escape.
 */
export function refusedJson(text: Uint8Array | string, limit: number): JsonRefusal | null {
  const at =
    typeof text === 'string' ? (i: number): number => text.charCodeAt(i) : (i: number): number => text[i];
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const c = at(i);
    if (inString) {
      if (escaped) {
        escaped = false;
        if (
          c === LETTER_U &&
          at(i + 1) === ZERO &&
          at(i + 2) === ZERO &&
          at(i + 3) === ZERO &&
          at(i + 4) === ZERO
        )
          return 'nul';
      } else if (c === BACKSLASH) escaped = true;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > limit) return 'too-deep';
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
  }
  return null;
}

/**
 * The fields of a parsed JSON body whose text (or a key) holds the NUL character, as validation names fields
 * (`profile.first_name`, `items.0.sku`): for the refusal of a body `refusedJson` found one in. At most
 * `limit` of them, read no deeper than `MAX_JSON_DEPTH`.
 */
export function nulFields(value: unknown, limit = 10): string[] {
  const found: string[] = [];
  const walk = (v: unknown, path: string, depth: number): void => {
    if (found.length >= limit || depth > MAX_JSON_DEPTH) return;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) found.push(path || 'body');
      return;
    }
    if (!v || typeof v !== 'object') return;
    for (const [key, child] of Object.entries(v)) {
      if (key.includes('\u0000'))
        found.push(path || 'body'); // a key is named by the object holding it
      else walk(child, path ? `${path}.${key}` : key, depth + 1);
    }
  };
  walk(value, '', 0);
  return found.slice(0, limit);
}
