import { Prop } from '#app/common/validation/fields.js';

const s = (example?: unknown, description?: string): PropertyDecorator =>
  Prop(String, { nullable: true, example, description });
const MASKED = 'Masked: "****" plus the last four characters; null when unset.';

/** The Site configuration as answered: every field, `null` when unset, secrets masked (DESIGN §8). */
export class SiteConfigDto {
  @Prop(String, { format: 'uuid' }) id!: string;
  @Prop(String, { example: 'example' }) site_id!: string;
  @Prop(String, { example: 'Example Prizes' }) display_name!: string;
  @s('example.com') domain!: string | null;
  @s('https://www.example.com') frontend_url!: string | null;
  @s('smtp', '`smtp`, `mailer`, `log`, or null for the default transport.') email_provider!: string | null;
  @Prop(String, { nullable: true, format: 'email', example: 'orders@example.com' })
  email_bcc_for_purchases!: string | null;
  @Prop('object', { example: {} }) additional_settings!: Record<string, unknown>;
  @s('****abcd', MASKED) contactsvc_api_key!: string | null;
  @s('42') contactsvc_contact_list_id!: string | null;
  @s('****cdef', MASKED) mailer_api_key!: string | null;
  @s('1') mailer_master_template_id!: string | null;
  @s('12') mailer_magic_link_template_id!: string | null;
  @s() mailer_password_reset_template_id!: string | null;
  @s() mailer_password_set_template_id!: string | null;
  @s() mailer_purchase_existing_template_id!: string | null;
  @s() mailer_purchase_new_template_id!: string | null;
  @s() mailer_raffle_entry_template_id!: string | null;
  @s() mailer_cms_new_user_template_id!: string | null;
  @s() mailer_welcome_template_id!: string | null;
  @s('2') mailer_generic_magic_link_template_id!: string | null;
  @s() mailer_generic_password_reset_template_id!: string | null;
  @s() mailer_generic_password_set_template_id!: string | null;
  @s() mailer_generic_purchase_existing_template_id!: string | null;
  @s() mailer_generic_purchase_new_template_id!: string | null;
  @s() mailer_generic_raffle_entry_template_id!: string | null;
  @s() mailer_generic_cms_new_user_template_id!: string | null;
  @s() mailer_generic_welcome_template_id!: string | null;
  @s('smtp.example.com') smtp_host!: string | null;
  @Prop('integer', { nullable: true, example: 587 }) smtp_port!: number | null;
  @s('mailer@example.com') smtp_username!: string | null;
  @s('****-123', MASKED) smtp_password!: string | null;
  @s('hello@example.com') smtp_from!: string | null;
  @s('Example Prizes') smtp_from_name!: string | null;
  @s('support@example.com') smtp_reply_to!: string | null;
  @s('****cdef', MASKED) analytics_api_key!: string | null;
  @Prop(String, { format: 'date-time' }) created_at!: string;
  @Prop(String, { format: 'date-time' }) updated_at!: string;
}
