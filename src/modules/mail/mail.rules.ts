import type { SiteConfig } from '#app/modules/sites/entities/site-config.entity.js';
import type { MailKind, MailVariables } from './mail.types.js';

/** How one site's mail leaves (DESIGN §7). */
export type MailRoute = 'default' | 'site-smtp' | 'mailer' | 'log';

/**
 * `smtp` with a host: the site's own server; `mailer`: the provider's HTTP API; `log`: the outbox.
 * Everything else (no site, no provider, `smtp` without a host) goes through the default transport.
 */
export function mailRouteOf(site: Pick<SiteConfig, 'email_provider' | 'smtp_host'> | null): MailRoute {
  switch (site?.email_provider) {
    case 'smtp':
      return site.smtp_host ? 'site-smtp' : 'default';
    case 'mailer':
      return 'mailer';
    case 'log':
      return 'log';
    default:
      return 'default';
  }
}

type TemplateIds = Pick<SiteConfig, `mailer_${string}_template_id` & keyof SiteConfig>;

/** The site's template for the kind, else its generic variant, else the master template. */
export function pickTemplateId(site: TemplateIds, kind: MailKind): string | null {
  return (
    // Kinds of our own beyond the spec's have no site template of their own: the master serves them.
    (site as Partial<Record<string, string | null>>)[`mailer_${kind}_template_id`] ??
    (site as Partial<Record<string, string | null>>)[`mailer_generic_${kind}_template_id`] ??
    site.mailer_master_template_id ??
    null
  );
}

/** The provider numbers its templates: a numeric id goes as a number, anything else as given. */
export function templateIdValue(id: string): number | string {
  return /^\d{1,15}$/.test(id) ? Number(id) : id;
}

export const PURCHASE_KINDS: readonly MailKind[] = ['purchase_existing', 'purchase_new'];

export function bccFor(
  kind: MailKind,
  site: Pick<SiteConfig, 'email_bcc_for_purchases'> | null,
): string | null {
  return PURCHASE_KINDS.includes(kind) ? (site?.email_bcc_for_purchases ?? null) : null;
}

/**
 * A new buyer's purchase mail as a receipt for the site's purchase BCC: the account paragraph's one-time link
 * and its lifetime left out (whoever holds the link can set the buyer's password).
 */
export function receiptOnly(variables: MailVariables): MailVariables {
  const { link: _link, expires_minutes: _expires, ...receipt } = variables;
  return receipt;
}

const EMAIL = /^[^\s@<>",;]+@[^\s@<>",;]+$/;
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

export interface Sender {
  from: { name: string; address: string };
  replyTo: string | null;
}

// eslint-disable-next-line no-control-regex -- control characters are what it removes
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/**
 * A display name as one line: every name is refused with line breaks at input (`Line`), but a value stored
 * before that rule, or by a path that forgot it, must still not reach a header as more than one line.
 */
export function oneLine(text: string): string {
  return text.replace(CONTROL, ' ').replace(/ {2,}/g, ' ').trim();
}

/**
 * The address is the site's `smtp_from` (else the service's MAIL_FROM): a raffle cannot send as an
 * address the server may not be allowed to use. The name and Reply-To follow the raffle's
 * `from_name` / `reply_to_email` first, then the site's settings, then the brand.
 */
export function senderOf(
  site: Pick<SiteConfig, 'smtp_from' | 'smtp_from_name' | 'smtp_reply_to' | 'display_name'> | null,
  vars: MailVariables,
  defaultFrom: string,
): Sender {
  const replyTo = str(vars.reply_to_email);
  const name =
    str(vars.from_name) ??
    site?.smtp_from_name ??
    str(vars.brand_name) ??
    site?.display_name ??
    str(vars.site_name);
  return {
    from: {
      name: oneLine(name ?? ''),
      address: site?.smtp_from ?? defaultFrom,
    },
    replyTo: replyTo && EMAIL.test(replyTo) ? replyTo : (site?.smtp_reply_to ?? null),
  };
}

/**
 * What a template (ours or the provider's) is given: the site's name and address, the year, then the
 * job's own variables, which win (a raffle's branding overrides the site's). Empty values are dropped.
 */
export function mailVariables(
  site: Pick<SiteConfig, 'site_id' | 'display_name' | 'frontend_url'> | null,
  siteId: string,
  variables: MailVariables,
  fallbackUrl: string,
  now: Date,
): Record<string, string | number | boolean> {
  const base: Record<string, string | number | boolean> = {
    site_name: site?.display_name ?? siteId,
    frontend_url: site?.frontend_url ?? fallbackUrl,
    current_year: String(now.getUTCFullYear()),
  };
  for (const [key, value] of Object.entries(variables)) {
    if (value !== null && value !== '') base[key] = value;
  }
  if (!('brand_name' in base)) base.brand_name = base.site_name;
  if (!('brand_site_url' in base)) base.brand_site_url = base.frontend_url;
  return base;
}

/** The recipient's display name for the provider, when the job knows one. */
export function recipientName(vars: MailVariables): string | undefined {
  const first = str(vars.first_name);
  const last = str(vars.last_name);
  return [first, last].filter(Boolean).join(' ') || undefined;
}
