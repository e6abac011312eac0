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
export type MailKind = (typeof MAIL_KINDS)[number];

export type MailVariables = Record<string, string | number | boolean | null>;

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}
