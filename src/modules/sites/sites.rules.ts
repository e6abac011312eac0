import type { FieldError } from '#app/common/errors/app.exception.js';
import { MAIL_KINDS, type SiteMailKind } from '#app/modules/mail/mail.types.js';

/** The Site configuration fields kept encrypted and answered masked (DESIGN §8). */
export const SECRET_FIELDS = [
  'contactsvc_api_key',
  'mailer_api_key',
  'smtp_password',
  'analytics_api_key',
] as const;
export type SecretField = (typeof SECRET_FIELDS)[number];

export type TemplateField =
  `mailer_${SiteMailKind}_template_id` | `mailer_generic_${SiteMailKind}_template_id`;

/** Every `mailer_<kind>_template_id`, then every `mailer_generic_<kind>_template_id`. */
export const TEMPLATE_FIELDS: TemplateField[] = [
  ...MAIL_KINDS.map((kind) => `mailer_${kind}_template_id` as const),
  ...MAIL_KINDS.map((kind) => `mailer_generic_${kind}_template_id` as const),
];

export const EMAIL_PROVIDERS = ['smtp', 'mailer', 'log'] as const;
export type EmailProvider = (typeof EMAIL_PROVIDERS)[number];

export const SITE_ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/** Where the sandbox serves its small pages for sites without a front end (`PROVIDERS=sandbox`). */
export const SANDBOX_SITE_PATH = '/sandbox/sites';

/**
 * The address links in a site's e-mails start from: its `frontend_url`; else, in the sandbox, the small
 * pages this service serves for it (set a password, sign in through a link, see my entries), so a guest
 * purchase → password → sign-in loop closes on one machine; else the service's own address.
 */
export function siteLinkBase(
  site: { frontend_url: string | null } | null,
  siteId: string,
  service: { providers: 'sandbox' | 'live'; publicBaseUrl: string },
): string {
  if (site?.frontend_url) return site.frontend_url;
  return service.providers === 'sandbox'
    ? `${service.publicBaseUrl}${SANDBOX_SITE_PATH}/${encodeURIComponent(siteId)}`
    : service.publicBaseUrl;
}

/**
 * A display name made from a site id, for sites made at start-up without one: `main` → `Main`,
 * `north-shop_2` → `North Shop 2`. E-mails show it ("We made a Main account…"), not the bare id.
 */
export function titleFromSiteId(siteId: string): string {
  const words = siteId.split(/[-_]+/).filter(Boolean);
  return words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ') || siteId;
}

const MASK = '****';
/** Below this length the last four characters would give away too much of the secret. */
const MIN_LENGTH_TO_SHOW_TAIL = 8;

/** `"****"` plus the last four characters; just `"****"` for a short secret; null when unset. */
export function maskSecret(plain: string | null): string | null {
  if (plain === null) return null;
  return plain.length >= MIN_LENGTH_TO_SHOW_TAIL ? `${MASK}${plain.slice(-4)}` : MASK;
}

export type SecretChange = { kind: 'keep' } | { kind: 'clear' } | { kind: 'set'; value: string };

/**
 * What an update does to a secret: omitted keeps it, `null` clears it, and the masked value the service
 * answered (a form sent back as it was read) keeps it too; anything else replaces it.
 */
export function secretChange(sent: string | null | undefined, current: string | null): SecretChange {
  if (sent === undefined) return { kind: 'keep' };
  if (sent === null || sent === '') return { kind: 'clear' };
  if (current !== null && sent === maskSecret(current)) return { kind: 'keep' };
  return { kind: 'set', value: sent };
}

/** Where the SMTP password is presented: change any of these and the stored password would go there. */
const SMTP_DESTINATION = ['smtp_host', 'smtp_port', 'smtp_username'] as const;

/**
 * The secrets an update must send again because it moves where they would be presented: the SMTP password
 * when the host, port or user name changes. Kept as it was, the stored password would log in to whatever
 * server the update names — one the admin making it runs, who only ever saw the password masked.
 */
export function secretsToResend(
  sent: Partial<Record<(typeof SMTP_DESTINATION)[number] | 'smtp_password', unknown>>,
  stored: { smtp_host: string | null; smtp_port: number | null; smtp_username: string | null },
  storedPassword: string | null,
): FieldError[] {
  if (storedPassword === null) return [];
  // Clearing one (null) sends the password nowhere; naming another value sends it there.
  const moved = SMTP_DESTINATION.filter(
    (f) => sent[f] !== undefined && sent[f] !== null && sent[f] !== stored[f],
  );
  if (
    !moved.length ||
    secretChange(sent.smtp_password as string | null | undefined, storedPassword).kind !== 'keep'
  )
    return [];
  return [
    {
      field: 'smtp_password',
      message: `must be sent again (or null to clear it) when ${moved.join(', ')} changes`,
    },
  ];
}

/** The settings a mail provider needs to send anything, checked on the site as it would be saved. */
export interface MailSettings {
  email_provider: string | null;
  smtp_host: string | null;
  has_mailer_api_key: boolean;
  mailer_master_template_id: string | null;
}

export function missingMailSettings(site: MailSettings, mailerConfigured: boolean): FieldError[] {
  const missing: FieldError[] = [];
  if (site.email_provider === 'smtp' && !site.smtp_host)
    missing.push({ field: 'smtp_host', message: 'is required when email_provider is "smtp"' });
  if (site.email_provider === 'mailer') {
    if (!site.has_mailer_api_key)
      missing.push({ field: 'mailer_api_key', message: 'is required when email_provider is "mailer"' });
    if (!site.mailer_master_template_id)
      missing.push({
        field: 'mailer_master_template_id',
        message: 'is required when email_provider is "mailer" (the template of last resort)',
      });
    if (!mailerConfigured)
      missing.push({ field: 'email_provider', message: 'MAILER_BASE_URL is not configured on this service' });
  }
  return missing;
}
