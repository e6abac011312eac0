import { AppException } from '#app/common/errors/app.exception.js';
import { isValidityWindowOrdered, validUntilOf } from './discounts.rules.js';
import type { OfferFieldsDto, UpdateDiscountCodeDto } from './dto/discount-code-input.dto.js';
import type { DiscountCode } from './entities/discount-code.entity.js';

/** How request bodies become discount-code columns: shared by create, bulk-generate and update. */

/** How each date field's text becomes its column: a start is the first moment it names, an end the last. */
const DATE_FIELDS = new Map<string, (value: string) => Date>([
  ['valid_from', (value) => new Date(value)],
  ['valid_until', validUntilOf],
]);
/** Not columns: the acting site and the tag links. */
const NOT_COLUMNS = new Set(['site_id', 'tag_ids']);
/** Columns an update may not clear. */
const NOT_NULL = new Set([
  'title',
  'points_required',
  'discount_brand_id',
  'code',
  'code_required',
  'active',
  'featured',
  'allow_multiple_claims',
  'alphanumeric',
]);
/** A bulk code's text is its generated codes: these describe single codes only. */
export const SINGLE_CODE_ONLY = ['code', 'code_pattern', 'code_length'] as const;

/** The column values of the fields a body sent (`undefined` ones left out, ISO strings as dates). */
export function offerColumns(body: OfferFieldsDto): Partial<DiscountCode> {
  const columns: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined || NOT_COLUMNS.has(key)) continue;
    const toDate = DATE_FIELDS.get(key);
    columns[key] = toDate && typeof value === 'string' ? toDate(value) : value;
  }
  return columns;
}

/** 400 for `null` sent to a field that always has a value. */
export function refuseNulls(body: UpdateDiscountCodeDto): void {
  const errors = Object.entries(body)
    .filter(([key, value]) => value === null && NOT_NULL.has(key))
    .map(([field]) => ({ field, message: 'cannot be null' }));
  if (errors.length) throw AppException.validation(errors);
}

/** 422 when the window would start after it ends. */
export function checkWindow(validFrom: Date | null, validUntil: Date | null): void {
  if (!isValidityWindowOrdered(validFrom, validUntil))
    throw AppException.unprocessable('INVALID_VALIDITY_WINDOW', 'valid_from must not be after valid_until.');
}
