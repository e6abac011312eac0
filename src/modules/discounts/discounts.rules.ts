/**
 * The catalogue's rules as plain functions (STYLE §2): validity (DESIGN §5), what a viewer may see of a
 * code, slugs, CSV cells. Code generation lives beside it in bulk-codes.rules.ts.
 */

export const MASK_CHAR = '•';

/** The facts `is_valid` is derived from. */
export interface ValidityFacts {
  active: boolean;
  valid_from: Date | null;
  valid_until: Date | null;
  current_uses: number;
  max_uses: number | null;
  is_bulk_code: boolean;
  /** Bulk codes only: whether at least one generated code is still unclaimed. */
  has_unclaimed_codes: boolean;
}

/**
 * DESIGN §5: active, inside [valid_from, valid_until] (both ends included, either may be open), uses
 * left when `max_uses` is set, and for a bulk code an unclaimed generated code left.
 */
export function isCodeValid(f: ValidityFacts, now: Date): boolean {
  if (!f.active) return false;
  if (f.valid_from && now.getTime() < f.valid_from.getTime()) return false;
  if (f.valid_until && now.getTime() > f.valid_until.getTime()) return false;
  if (f.max_uses !== null && f.current_uses >= f.max_uses) return false;
  if (f.is_bulk_code && !f.has_unclaimed_codes) return false;
  return true;
}

/** A year, a month or a day given alone (`2026`, `2026-12`, `2026-12-31`): ISO 8601's reduced precisions. */
const PERIOD_ALONE = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/;

/**
 * The last moment of a `valid_until` (inclusive): a date-time is that moment; a day, month or year given
 * alone is the whole of it (UTC), so "valid until 2026-12-31" still takes claims on the 31st. A Date reads a
 * date alone as its first moment, which ended such a code as the day began.
 */
export function validUntilOf(value: string): Date {
  const period = PERIOD_ALONE.exec(value);
  const at = new Date(value); // a period given alone: its first moment, UTC
  if (!period) return at;
  const [, , month, day] = period;
  if (day) at.setUTCDate(at.getUTCDate() + 1);
  else if (month) at.setUTCMonth(at.getUTCMonth() + 1);
  else at.setUTCFullYear(at.getUTCFullYear() + 1);
  return new Date(at.getTime() - 1);
}

/** A window whose start lies after its end can never be valid: refused rather than stored. */
export function isValidityWindowOrdered(from: Date | null, until: Date | null): boolean {
  return !from || !until || from.getTime() <= until.getTime();
}

export interface CodeText {
  code: string | null;
  is_bulk_code: boolean;
  prefix: string | null;
  code_length: number | null;
}

export interface Viewer {
  /** An admin of the code's site, or a superadmin. */
  isAdmin: boolean;
  /** The generated codes this viewer has claimed (bulk codes), oldest first. */
  claimedCodes: string[];
  /** Whether this viewer has claimed the code at all (single or bulk). */
  hasClaimed: boolean;
}

export interface PresentedCode {
  code: string | null;
  code_display: string | null;
}

/**
 * What a viewer sees of the code text (DESIGN §6): the text only to admins and to a user who claimed
 * it; everyone else gets `code: null` and a mask of bullets in `code_display`. A single code's mask
 * has its length and nothing of its text. A bulk code has no one text: its mask shows the shared
 * prefix and one bullet per generated character; a claimer sees its latest claimed code.
 */
export function presentCode(c: CodeText, viewer: Viewer): PresentedCode {
  if (c.is_bulk_code) {
    const latest = viewer.claimedCodes.at(-1);
    if (latest) return { code: latest, code_display: latest };
    return { code: null, code_display: `${c.prefix ?? ''}${MASK_CHAR.repeat(c.code_length ?? 0)}` };
  }
  if (c.code === null) return { code: null, code_display: null };
  if (viewer.isAdmin || viewer.hasClaimed) return { code: c.code, code_display: c.code };
  return { code: null, code_display: MASK_CHAR.repeat(c.code.length) };
}

/** "Summer Sale 2025!" → "summer-sale-2025": lower case ASCII letters and digits joined by hyphens. */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/g, '');
}

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * One CSV cell (RFC 4180 quoting). A cell a spreadsheet would run as a formula (leading `=`, `+`,
 * `-`, `@`, tab or carriage return) gets a leading apostrophe (OWASP "CSV injection").
 */
export function csvCell(value: string | number | boolean | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: Array<string | number | boolean | null>): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are opaque to clients; one that is not a uuid cannot name a row (checked before querying). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/**
 * Whether a code may be claimed now, before anything is written (DESIGN §6): active and inside its
 * window. Uses left and unclaimed codes left are decided by the claim's own statements, under any
 * concurrency, not here.
 */
export function claimRefusal(
  c: { active: boolean; valid_from: Date | null; valid_until: Date | null },
  now: Date,
): 'CODE_NOT_VALID' | null {
  if (!c.active) return 'CODE_NOT_VALID';
  if (c.valid_from && now.getTime() < c.valid_from.getTime()) return 'CODE_NOT_VALID';
  if (c.valid_until && now.getTime() > c.valid_until.getTime()) return 'CODE_NOT_VALID';
  return null;
}
