import { isEmail } from 'class-validator';
import { EMAIL_MAX_LENGTH } from '#app/common/column-limits.js';
import { normalizedEmail } from '#app/common/email-address.js';

/**
 * Whether an address fits the account's columns (`email` and `email_normalized`, both `varchar(254)`) as it is
 * and once normalised (`normalizedEmail`). Lower-casing can lengthen an address: `İ` (U+0130) becomes `i` and a
 * combining dot, so a 158-character address became 310 and failed the insert (a 500). Counted in UTF-16 units,
 * never fewer than the characters PostgreSQL counts, so what passes here fits there.
 */
export function fitsEmailColumns(email: string): boolean {
  return email.length <= EMAIL_MAX_LENGTH && normalizedEmail(email).length <= EMAIL_MAX_LENGTH;
}

/**
 * Whether the address is in the `.invalid` top-level domain, which RFC 2606 reserves: no mailbox can be there.
 * An erased account's address is moved there (`tombstoneEmail`) so that the unique index still holds; an account
 * made with such an address could take an erased account's tombstone and block its erasure (a 500).
 */
export function isReservedEmailDomain(email: string): boolean {
  const domain = normalizedEmail(email.slice(email.lastIndexOf('@') + 1)).replace(/\.$/, '');
  return domain === 'invalid' || domain.endsWith('.invalid');
}

/**
 * Why an address cannot be taken, or undefined: the rule every e-mail that comes in is held to (`Email()`, the
 * website form's reader, and account creation for anything else).
 */
export function emailProblem(email: string): string | undefined {
  if (!fitsEmailColumns(email)) return `must be at most ${EMAIL_MAX_LENGTH} characters, also in lower case`;
  if (isReservedEmailDomain(email))
    return 'must not be in the reserved .invalid domain (RFC 2606), where no mailbox can be';
  return undefined;
}

/**
 * Why an address that came in other than through a DTO (a website form, an account made by another feature)
 * cannot be taken, or undefined: what the API's `Email()` fields check, the format (class-validator's `isEmail`,
 * with the decorator's message) and `emailProblem`. An address one of them refuses would make an account nobody
 * can sign in to: registration, login and reset all refuse it.
 */
export function acceptedEmailProblem(email: string): string | undefined {
  return emailProblem(email) ?? (isEmail(email) ? undefined : 'must be an e-mail address');
}

export function isAcceptedEmail(email: string): boolean {
  return acceptedEmailProblem(email) === undefined;
}
