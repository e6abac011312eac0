import { Column, Entity, Index } from 'typeorm';
import { TimestampedEntity } from '#app/infra/database/columns.js';

const id = { type: 'varchar', length: 100, nullable: true } as const;
/** Secrets hold `v1:<iv>:<tag>:<ciphertext>` (AES-256-GCM, DESIGN §8), never the plain text. */
const secret = { type: 'text', nullable: true } as const;

/**
 * A site (tenant) and its provider settings: every field of the spec's Site configuration. The columns
 * `contactsvc_api_key`, `mailer_api_key`, `smtp_password` and `analytics_api_key` are encrypted.
 */
@Entity('site_configs')
export class SiteConfig extends TimestampedEntity {
  @Index({ unique: true })
  @Column({ type: 'varchar', length: 64 })
  site_id!: string;

  @Column({ type: 'varchar', length: 200 })
  display_name!: string;

  @Column({ type: 'varchar', length: 255, nullable: true }) domain!: string | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  frontend_url!: string | null;

  /** `smtp`, `mailer` or `log`; null: the service's default transport (MAIL_TRANSPORT). */
  @Column({ type: 'varchar', length: 16, nullable: true }) email_provider!: string | null;
  @Column({ type: 'varchar', length: 254, nullable: true }) email_bcc_for_purchases!: string | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  additional_settings!: Record<string, unknown>;

  @Column(secret) contactsvc_api_key!: string | null;
  @Column({ type: 'varchar', length: 200, nullable: true }) contactsvc_contact_list_id!: string | null;

  @Column(secret) mailer_api_key!: string | null;
  @Column(id) mailer_master_template_id!: string | null;
  @Column(id) mailer_magic_link_template_id!: string | null;
  @Column(id) mailer_password_reset_template_id!: string | null;
  @Column(id) mailer_password_set_template_id!: string | null;
  @Column(id) mailer_purchase_existing_template_id!: string | null;
  @Column(id) mailer_purchase_new_template_id!: string | null;
  @Column(id) mailer_raffle_entry_template_id!: string | null;
  @Column(id) mailer_cms_new_user_template_id!: string | null;
  @Column(id) mailer_welcome_template_id!: string | null;
  @Column(id) mailer_generic_magic_link_template_id!: string | null;
  @Column(id) mailer_generic_password_reset_template_id!: string | null;
  @Column(id) mailer_generic_password_set_template_id!: string | null;
  @Column(id) mailer_generic_purchase_existing_template_id!: string | null;
  @Column(id) mailer_generic_purchase_new_template_id!: string | null;
  @Column(id) mailer_generic_raffle_entry_template_id!: string | null;
  @Column(id) mailer_generic_cms_new_user_template_id!: string | null;
  @Column(id) mailer_generic_welcome_template_id!: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true }) smtp_host!: string | null;
  @Column({ type: 'integer', nullable: true }) smtp_port!: number | null;
  @Column({ type: 'varchar', length: 255, nullable: true }) smtp_username!: string | null;
  @Column(secret) smtp_password!: string | null;
  @Column({ type: 'varchar', length: 254, nullable: true }) smtp_from!: string | null;
  @Column({ type: 'varchar', length: 200, nullable: true }) smtp_from_name!: string | null;
  @Column({ type: 'varchar', length: 254, nullable: true }) smtp_reply_to!: string | null;

  @Column(secret) analytics_api_key!: string | null;
}
