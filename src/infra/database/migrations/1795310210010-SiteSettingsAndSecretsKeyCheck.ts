import { type MigrationInterface, type QueryRunner } from 'typeorm';

export class SiteSettingsAndSecretsKeyCheck1795310210010 implements MigrationInterface {
  name = 'SiteSettingsAndSecretsKeyCheck1795310210010';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "secrets_key_checks" (
                "name" character varying(32) NOT NULL,
                "check_value" text NOT NULL,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_b98c2f4652b4f5be86f37840e36" PRIMARY KEY ("name")
            )
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs"
            ADD "domain" character varying(255)
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs"
            ADD "email_provider" character varying(16)
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs"
            ADD "email_bcc_for_purchases" character varying(254)
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs"
            ADD "contactsvc_api_key" text
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs"
            ADD "contactsvc_contact_list_id" character varying(200)
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs"
            ADD "mailer_api_key" text
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs"
            ADD "mailer_master_template_id" character varying(100)
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs"
            ADD "mailer_magic_link_template_id" character varying(100)
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs"
            ADD "mailer_password_reset_template_id" character varying(100)
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs"
            ADD "mailer_password_set_template_id" character varying(100)
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs"
            ADD "mailer_purchase_existing_template_id" character varying(100)
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs"
            ADD "mailer_purchase_new_template_id" character varying(100)
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs"
            ADD "mailer_raffle_entry_template_id" character varying(100)
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs"
            ADD "mailer_cms_new_user_template_id" character varying(100)
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs"
            ADD "mailer_welcome_template_id" character varying(100)
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs"
            ADD "mailer_generic_magic_link_template_id" character varying(100)
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs"
            ADD "mailer_generic_password_reset_template_id" character varying(100)
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs"
            ADD "mailer_generic_password_set_template_id" character varying(100)
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs"
            ADD "mailer_generic_purchase_existing_template_id" character varying(100)
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs"
            ADD "mailer_generic_purchase_new_template_id" character varying(100)
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs"
            ADD "mailer_generic_raffle_entry_template_id" character varying(100)
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs"
            ADD "mailer_generic_cms_new_user_template_id" character varying(100)
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs"
            ADD "mailer_generic_welcome_template_id" character varying(100)
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs"
            ADD "smtp_host" character varying(255)
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs"
            ADD "smtp_port" integer
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs"
            ADD "smtp_username" character varying(255)
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs"
            ADD "smtp_password" text
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs"
            ADD "smtp_from" character varying(254)
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs"
            ADD "smtp_from_name" character varying(200)
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs"
            ADD "smtp_reply_to" character varying(254)
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs"
            ADD "analytics_api_key" text
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "site_configs" DROP COLUMN "analytics_api_key"
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs" DROP COLUMN "smtp_reply_to"
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs" DROP COLUMN "smtp_from_name"
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs" DROP COLUMN "smtp_from"
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs" DROP COLUMN "smtp_password"
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs" DROP COLUMN "smtp_username"
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs" DROP COLUMN "smtp_port"
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs" DROP COLUMN "smtp_host"
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs" DROP COLUMN "mailer_generic_welcome_template_id"
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs" DROP COLUMN "mailer_generic_cms_new_user_template_id"
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs" DROP COLUMN "mailer_generic_raffle_entry_template_id"
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs" DROP COLUMN "mailer_generic_purchase_new_template_id"
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs" DROP COLUMN "mailer_generic_purchase_existing_template_id"
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs" DROP COLUMN "mailer_generic_password_set_template_id"
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs" DROP COLUMN "mailer_generic_password_reset_template_id"
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs" DROP COLUMN "mailer_generic_magic_link_template_id"
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs" DROP COLUMN "mailer_welcome_template_id"
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs" DROP COLUMN "mailer_cms_new_user_template_id"
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs" DROP COLUMN "mailer_raffle_entry_template_id"
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs" DROP COLUMN "mailer_purchase_new_template_id"
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs" DROP COLUMN "mailer_purchase_existing_template_id"
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs" DROP COLUMN "mailer_password_set_template_id"
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs" DROP COLUMN "mailer_password_reset_template_id"
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs" DROP COLUMN "mailer_magic_link_template_id"
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs" DROP COLUMN "mailer_master_template_id"
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs" DROP COLUMN "mailer_api_key"
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs" DROP COLUMN "contactsvc_contact_list_id"
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs" DROP COLUMN "contactsvc_api_key"
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs" DROP COLUMN "email_bcc_for_purchases"
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs" DROP COLUMN "email_provider"
        `);
    await queryRunner.query(`
            ALTER TABLE "site_configs" DROP COLUMN "domain"
        `);
    await queryRunner.query(`
            DROP TABLE "secrets_key_checks"
        `);
  }
}
