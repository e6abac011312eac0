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

/**
 * Whether a JSON text nests objects and arrays deeper than `limit`, read in one pass without recursion
 * and before anything parses it. Brackets inside strings do not count. The text need not be valid JSON
 * (the parser refuses that afterwards). UTF-8 bytes can be given as they are: every byte of a multi-byte
 * character is ≥ 0x80, so none is mistaken for a bracket or a quote.
 */
export function nestsDeeperThan(text: Uint8Array | string, limit: number): boolean {
  const at =
    typeof text === 'string' ? (i: number): number => text.charCodeAt(i) : (i: number): number => text[i];
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const c = at(i);
    if (inString) {
      if (escaped) escaped = false;
      else if (c === BACKSLASH) escaped = true;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
  }
  return false;
}
