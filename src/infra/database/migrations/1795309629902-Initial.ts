import { type MigrationInterface, type QueryRunner } from 'typeorm';

export class Initial1795309629902 implements MigrationInterface {
  name = 'Initial1795309629902';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "user_profiles" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "user_id" uuid NOT NULL,
                "site_id" character varying(64) NOT NULL,
                "first_name" character varying(100),
                "last_name" character varying(100),
                "title" character varying(50),
                "organization" character varying(200),
                "phone_number" character varying(40),
                "address" character varying(200),
                "address_2" character varying(200),
                "city" character varying(100),
                "state_region" character varying(100),
                "zip_code" character varying(20),
                "country" character varying(100),
                "latitude" character varying(32),
                "longitude" character varying(32),
                "locale" character varying(20),
                "timezone" character varying(64),
                "marketing_id" character varying(200),
                "accepts_marketing" boolean NOT NULL DEFAULT false,
                CONSTRAINT "UQ_6ca9503d77ae39b4b5a6cc3ba88" UNIQUE ("user_id"),
                CONSTRAINT "REL_6ca9503d77ae39b4b5a6cc3ba8" UNIQUE ("user_id"),
                CONSTRAINT "PK_1ec6662219f4605723f1e41b6cb" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE TABLE "users" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "site_id" character varying(64) NOT NULL,
                "email" character varying(254) NOT NULL,
                "email_normalized" character varying(254) NOT NULL,
                "name" character varying(200),
                "role" character varying(20) NOT NULL DEFAULT 'user',
                "password_hash" character varying(255),
                "signup_source" character varying(40) NOT NULL DEFAULT 'register',
                "email_verified_at" TIMESTAMP WITH TIME ZONE,
                "has_consented" boolean NOT NULL DEFAULT false,
                "data_processing_consent" boolean NOT NULL DEFAULT false,
                "marketing_consent" boolean NOT NULL DEFAULT false,
                "consent_version" character varying(40),
                "consent_given_at" TIMESTAMP WITH TIME ZONE,
                "age_confirmed_at" TIMESTAMP WITH TIME ZONE,
                "date_of_birth" date,
                "last_login_at" TIMESTAMP WITH TIME ZONE,
                "failed_login_attempts" integer NOT NULL DEFAULT '0',
                "account_locked_until" TIMESTAMP WITH TIME ZONE,
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "deletion_reason" character varying(500),
                CONSTRAINT "PK_a3ffb1c0c8416b9fc6f907b7433" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_users_site_id" ON "users" ("site_id", "id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_users_site_email" ON "users" ("site_id", "email_normalized")
        `);
    await queryRunner.query(`
            CREATE TABLE "one_time_tokens" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "user_id" uuid NOT NULL,
                "purpose" character varying(20) NOT NULL,
                "token_hash" character varying(64) NOT NULL,
                "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL,
                "used_at" TIMESTAMP WITH TIME ZONE,
                CONSTRAINT "PK_8e470cc9ffc1b2afa054304db17" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "IDX_22e595d22f108ce4f2843e043a" ON "one_time_tokens" ("token_hash")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_one_time_tokens_user" ON "one_time_tokens" ("user_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "refresh_tokens" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "user_id" uuid NOT NULL,
                "family_id" uuid NOT NULL,
                "token_hash" character varying(64) NOT NULL,
                "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL,
                "rotated_at" TIMESTAMP WITH TIME ZONE,
                "revoked_at" TIMESTAMP WITH TIME ZONE,
                CONSTRAINT "PK_7d8bee0204106019488c4c50ffa" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "IDX_a7838d2ba25be1342091b6695f" ON "refresh_tokens" ("token_hash")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_refresh_tokens_user" ON "refresh_tokens" ("user_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_refresh_tokens_family" ON "refresh_tokens" ("family_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "site_configs" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "site_id" character varying(64) NOT NULL,
                "display_name" character varying(200) NOT NULL,
                "frontend_url" character varying(500),
                "additional_settings" jsonb NOT NULL DEFAULT '{}',
                CONSTRAINT "PK_c86c7cb6e191b2ce1edb4e58fa4" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "IDX_e2860fca87e9d16a4369efd284" ON "site_configs" ("site_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "activity_logs" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "user_id" uuid,
                "site_id" character varying(64),
                "activity_type" character varying(60) NOT NULL,
                "description" character varying(500) NOT NULL,
                "severity" character varying(20) NOT NULL DEFAULT 'info',
                "ip_address" character varying(64),
                "user_agent" character varying(500),
                "request_id" character varying(128),
                "session_id" character varying(128),
                "resource_type" character varying(60),
                "resource_id" character varying(128),
                "metadata" jsonb NOT NULL DEFAULT '{}',
                CONSTRAINT "PK_f25287b6140c5ba18d38776a796" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_activity_logs_user_created" ON "activity_logs" ("user_id", "created_at")
        `);
    await queryRunner.query(`
            ALTER TABLE "user_profiles"
            ADD CONSTRAINT "FK_6ca9503d77ae39b4b5a6cc3ba88" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "one_time_tokens"
            ADD CONSTRAINT "FK_0dc2deee64e514ad6f7e69504e1" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "refresh_tokens"
            ADD CONSTRAINT "FK_3ddc983c5f7bcf132fd8732c3f4" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "activity_logs"
            ADD CONSTRAINT "FK_d54f841fa5478e4734590d44036" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE
            SET NULL ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "activity_logs" DROP CONSTRAINT "FK_d54f841fa5478e4734590d44036"
        `);
    await queryRunner.query(`
            ALTER TABLE "refresh_tokens" DROP CONSTRAINT "FK_3ddc983c5f7bcf132fd8732c3f4"
        `);
    await queryRunner.query(`
            ALTER TABLE "one_time_tokens" DROP CONSTRAINT "FK_0dc2deee64e514ad6f7e69504e1"
        `);
    await queryRunner.query(`
            ALTER TABLE "user_profiles" DROP CONSTRAINT "FK_6ca9503d77ae39b4b5a6cc3ba88"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_activity_logs_user_created"
        `);
    await queryRunner.query(`
            DROP TABLE "activity_logs"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."IDX_e2860fca87e9d16a4369efd284"
        `);
    await queryRunner.query(`
            DROP TABLE "site_configs"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_refresh_tokens_family"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_refresh_tokens_user"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."IDX_a7838d2ba25be1342091b6695f"
        `);
    await queryRunner.query(`
            DROP TABLE "refresh_tokens"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_one_time_tokens_user"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."IDX_22e595d22f108ce4f2843e043a"
        `);
    await queryRunner.query(`
            DROP TABLE "one_time_tokens"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_users_site_email"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_users_site_id"
        `);
    await queryRunner.query(`
            DROP TABLE "users"
        `);
    await queryRunner.query(`
            DROP TABLE "user_profiles"
        `);
  }
}
