import { formatMoney } from '#app/common/money.js';
import type { MailVariables } from '#app/modules/mail/mail.types.js';

/** A date as the e-mails show it: "2030-03-01". */
export const day = (at: Date | string | null): string | null =>
  at ? new Date(at).toISOString().slice(0, 10) : null;

/** The variables every membership e-mail shares: the tier as members know it (its display name). */
export function membershipVariables(s: {
  tier_title: string;
  amount_cents: number;
  currency: string;
}): MailVariables {
  return { tier_name: s.tier_title, amount: formatMoney(s.amount_cents, s.currency) };
}
