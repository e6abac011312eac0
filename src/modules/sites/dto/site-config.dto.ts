import { IntersectionType } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { PageQueryDto } from '#app/common/pagination/pagination.js';
import { RATE_LIMIT_RULE_NAMES, SITE_LIMIT_MAX } from '#app/common/rate-limit/rate-limit.rules.js';
import { Email, HostName, Int, Line, OneLine, Str } from '#app/common/validation/fields.js';
import { EMAIL_PROVIDERS, SITE_ID_PATTERN } from '../sites.rules.js';
import { BoundedSettings, Domain, HttpUrl, OneOf, PresentObj, PresentStr } from './site-fields.js';

const SECRET =
  'Secret: stored encrypted, answered as "****" plus its last four characters. On update: omit it (or send ' +
  'back the masked value) to keep it, `null` to clear it.';
const TEMPLATE = (kind: string, generic = false): string =>
  generic
    ? `Provider template for ${kind} when the site has no specific one.`
    : `Provider template for ${kind}; else the generic variant, else the master template.`;
const tpl = (kind: string, generic = false): PropertyDecorator =>
  Str({ max: 100, nullable: true, example: generic ? '2' : '12', description: TEMPLATE(kind, generic) });
const secret = (example: string): PropertyDecorator =>
  Str({ max: 500, nullable: true, example, description: SECRET });

/**
 * Every Site configuration setting except its identity. All optional: `null` clears a setting; on update
 * an omitted one keeps its value.
 */
export class SiteSettingsDto {
  @Domain({ example: 'example.com', description: 'The site’s domain (a host name or URL).' })
  domain?: string | null;

  @HttpUrl({ max: 500, example: 'https://www.example.com', description: 'Links in e-mails point here.' })
  frontend_url?: string | null;

  @OneOf(EMAIL_PROVIDERS, {
    example: 'smtp',
    description:
      '`smtp`: the site’s SMTP settings (`smtp_host` required); `mailer`: the provider’s templates ' +
      '(`mailer_api_key` and `mailer_master_template_id` required); `log`: written to the outbox. ' +
      '`null`: the service’s default transport.',
  })
  email_provider?: string | null;

  @Email({ nullable: true, example: 'orders@example.com', description: 'BCC of every purchase e-mail.' })
  email_bcc_for_purchases?: string | null;

  @BoundedSettings()
  @PresentObj({
    example: { age_check: 'declaration' },
    description:
      'Free-form per-site settings: 8 levels deep and 64 KB at most. `rate_limits` sets this site’s own rate ' +
      `limits, each a whole number of requests (1 to ${SITE_LIMIT_MAX}) per the rule’s window, by rule name: ` +
      `${RATE_LIMIT_RULE_NAMES.map((n) => `\`${n}\``).join(', ')} (DESIGN §9’s defaults otherwise).`,
  })
  additional_settings?: Record<string, unknown>;

  @secret('cs-live-0123456789abcd') contactsvc_api_key?: string | null;
  @Str({ max: 200, nullable: true, example: '42' }) contactsvc_contact_list_id?: string | null;

  @secret('xkeysib-0123456789abcdef') mailer_api_key?: string | null;
  @Str({ max: 100, nullable: true, example: '1', description: 'Template of last resort for every kind.' })
  mailer_master_template_id?: string | null;

  @tpl('magic_link') mailer_magic_link_template_id?: string | null;
  @tpl('password_reset') mailer_password_reset_template_id?: string | null;
  @tpl('password_set') mailer_password_set_template_id?: string | null;
  @tpl('purchase_existing') mailer_purchase_existing_template_id?: string | null;
  @tpl('purchase_new') mailer_purchase_new_template_id?: string | null;
  @tpl('raffle_entry') mailer_raffle_entry_template_id?: string | null;
  @tpl('cms_new_user') mailer_cms_new_user_template_id?: string | null;
  @tpl('welcome') mailer_welcome_template_id?: string | null;
  @tpl('magic_link', true) mailer_generic_magic_link_template_id?: string | null;
  @tpl('password_reset', true) mailer_generic_password_reset_template_id?: string | null;
  @tpl('password_set', true) mailer_generic_password_set_template_id?: string | null;
  @tpl('purchase_existing', true) mailer_generic_purchase_existing_template_id?: string | null;
  @tpl('purchase_new', true) mailer_generic_purchase_new_template_id?: string | null;
  @tpl('raffle_entry', true) mailer_generic_raffle_entry_template_id?: string | null;
  @tpl('cms_new_user', true) mailer_generic_cms_new_user_template_id?: string | null;
  @tpl('welcome', true) mailer_generic_welcome_template_id?: string | null;

  @HostName({
    nullable: true,
    example: 'smtp.example.com',
    description: 'A host name or IP address; the port goes in `smtp_port`.',
  })
  smtp_host?: string | null;
  @Int({ min: 1, max: 65535, nullable: true, example: 587, description: '587 when unset; 465 means TLS.' })
  smtp_port?: number | null;
  @Str({ max: 255, nullable: true, example: 'mailer@example.com' }) smtp_username?: string | null;
  @secret('smtp-password-123') smtp_password?: string | null;
  @Email({ nullable: true, example: 'hello@example.com', description: 'From address.' })
  smtp_from?: string | null;
  @Line({ max: 200, nullable: true, example: 'Example Prizes', description: 'From name.' })
  smtp_from_name?: string | null;
  @Email({ nullable: true, example: 'support@example.com', description: 'Reply-To address.' })
  smtp_reply_to?: string | null;

  @secret('an-0123456789abcdef') analytics_api_key?: string | null;
}

class SiteIdentityDto {
  @Str({ required: true, max: 63, example: 'example', description: 'Unique slug: a–z, 0–9, `-`, `_`.' })
  @Matches(SITE_ID_PATTERN, {
    message: 'must be a lowercase slug (a-z, 0-9, - and _; 63 characters at most)',
  })
  site_id!: string;

  @Line({ required: true, min: 1, max: 200, example: 'Example Prizes' })
  @Matches(/\S/, { message: 'display_name must not be blank' })
  display_name!: string;
}

class SiteNameDto {
  @OneLine()
  @PresentStr({ max: 200, example: 'Example Prizes' })
  @Matches(/\S/, { message: 'display_name must not be blank' })
  display_name?: string;
}

/** Endpoint 18: the Site configuration without `id` and timestamps; `site_id` leads. */
export class CreateSiteConfigDto extends IntersectionType(SiteIdentityDto, SiteSettingsDto) {}

/** `PUT /admin/site-configs/{site_id}`: a partial update; `site_id` is the path's and cannot change. */
export class UpdateSiteConfigDto extends IntersectionType(SiteNameDto, SiteSettingsDto) {}

export class ListSiteConfigsQueryDto extends PageQueryDto {}
