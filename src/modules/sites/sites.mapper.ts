import type { SiteConfigDto } from './dto/site-config-response.dto.js';
import type { SiteConfig } from './entities/site-config.entity.js';
import { maskSecret, SECRET_FIELDS, type SecretField, TEMPLATE_FIELDS } from './sites.rules.js';

/**
 * The one place a site becomes a response. Secrets go out only masked: `reveal` decrypts a stored value
 * so its last four characters can be shown, and nothing else of it leaves.
 */
export function toSiteConfigDto(
  site: SiteConfig,
  reveal: (field: SecretField) => string | null,
): SiteConfigDto {
  const masked = Object.fromEntries(SECRET_FIELDS.map((f) => [f, maskSecret(reveal(f))])) as Record<
    SecretField,
    string | null
  >;
  const templates = Object.fromEntries(TEMPLATE_FIELDS.map((f) => [f, site[f]])) as Pick<
    SiteConfigDto,
    (typeof TEMPLATE_FIELDS)[number]
  >;
  return {
    id: site.id,
    site_id: site.site_id,
    display_name: site.display_name,
    domain: site.domain,
    frontend_url: site.frontend_url,
    email_provider: site.email_provider,
    email_bcc_for_purchases: site.email_bcc_for_purchases,
    additional_settings: site.additional_settings,
    contactsvc_api_key: masked.contactsvc_api_key,
    contactsvc_contact_list_id: site.contactsvc_contact_list_id,
    mailer_api_key: masked.mailer_api_key,
    mailer_master_template_id: site.mailer_master_template_id,
    ...templates,
    smtp_host: site.smtp_host,
    smtp_port: site.smtp_port,
    smtp_username: site.smtp_username,
    smtp_password: masked.smtp_password,
    smtp_from: site.smtp_from,
    smtp_from_name: site.smtp_from_name,
    smtp_reply_to: site.smtp_reply_to,
    analytics_api_key: masked.analytics_api_key,
    created_at: site.created_at.toISOString(),
    updated_at: site.updated_at.toISOString(),
  };
}
