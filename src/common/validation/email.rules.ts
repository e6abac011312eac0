import { EMAIL_MAX_LENGTH } from '#app/common/column-limits.js';
import { normalizedEmail } from '#app/common/email-address.js';

/**
 * Whether an address fits the account's columns (`email` and `email_normalized`, both `varchar(254)`) as it is
 * and once normalised (`normalizedEmail`). Lower-casing can lengthen an address: `İ` (U+0130) becomes `i` and a combining dot, so a
 * 158-character address became 310 and failed the insert (a 500). Counted in UTF-16 units, never fewer than the
 * characters PostgreSQL counts, so what passes here fits there.
 */
export function fitsEmailColumns(email: string): boolean {
  return email.length <= EMAIL_MAX_LENGTH && normalizedEmail(email).length <= EMAIL_MAX_LENGTH;
}
