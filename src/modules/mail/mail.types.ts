/** The e-mail kinds a site has templates for (spec, Site configuration). */
export const MAIL_KINDS = [
  'magic_link',
  'password_reset',
  'password_set',
  'purchase_existing',
  'purchase_new',
  'raffle_entry',
  'cms_new_user',
  'welcome',
] as const;
/** A kind a site has template ids for. */
export type SiteMailKind = (typeof MAIL_KINDS)[number];

/**
 * Every kind the service sends: the spec's eight, and ours — a paid order refunded because it could not
 * be entered; a refund staff made; a membership started, about to renew, whose charge failed, or cancelled; a raffle won.
 */
export const ALL_MAIL_KINDS = [
  ...MAIL_KINDS,
  'purchase_refunded',
  'payment_refunded',
  'subscription_started',
  'subscription_reminder',
  'subscription_payment_failed',
  'subscription_cancelled',
  'raffle_winner',
] as const;
export type MailKind = (typeof ALL_MAIL_KINDS)[number];

export type MailVariables = Record<string, string | number | boolean | null>;

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}
