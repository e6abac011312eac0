import { AppException } from '#app/common/errors/app.exception.js';

/**
 * Partial updates take `null` to clear an optional field, but a field the record cannot be without
 * (a name, a price) must not be cleared: 400, listing each such field. The validation pipe cannot
 * tell, because an optional field lets `null` through.
 */
export function refuseNulls(body: object, fields: readonly string[]): void {
  const values = body as Record<string, unknown>;
  const errors = fields
    .filter((field) => field in values && values[field] === null)
    .map((field) => ({ field, message: `${field} cannot be null` }));
  if (errors.length) throw AppException.validation(errors);
}
