import type { MigrationInterface, QueryRunner } from 'typeorm';

export class RewardsEconomy1795577151536 implements MigrationInterface {
  name = 'RewardsEconomy1795577151536';

  public async up(queryRunner: QueryRunner): Promise<void> {
    // The claim's last statement (the code's use counter) is sent with COMMIT: it refuses by raising.
    await queryRunner.query(`
            CREATE FUNCTION claim_refused(reason text) RETURNS integer LANGUAGE plpgsql AS $$
            BEGIN
              RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'CLAIM_REFUSED', DETAIL = reason;
            END
            $$
        `);
    await queryRunner.query(`
            CREATE TABLE "discount_claims" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "site_id" character varying(64) NOT NULL,
                "discount_code_id" uuid NOT NULL,
                "user_id" uuid NOT NULL,
                "once_per_user" uuid,
                "unique_code_id" uuid,
                "code" character varying(64),
                "points_spent" integer NOT NULL DEFAULT '0',
                CONSTRAINT "PK_9e3a29a335a30d2ed0baeeb75de" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_discount_claims_once" ON "discount_claims" ("discount_code_id", "once_per_user")
            WHERE "once_per_user" IS NOT NULL
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_discount_claims_user_code" ON "discount_claims" ("user_id", "discount_code_id", "created_at")
        `);
    await queryRunner.query(`
            CREATE TABLE "referrals" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "site_id" character varying(64) NOT NULL,
                "referrer_user_id" uuid NOT NULL,
                "referee_user_id" uuid NOT NULL,
                "referral_code" character varying(16) NOT NULL,
                "status" character varying(16) NOT NULL,
                "signup_points" integer NOT NULL DEFAULT '0',
                "purchase_points" integer NOT NULL DEFAULT '0',
                "completed_payment_id" uuid,
                "cancel_reason" character varying(64),
                CONSTRAINT "ck_referrals_status" CHECK (
                    "status" IN ('pending', 'completed', 'cancelled')
                ),
                CONSTRAINT "PK_ea9980e34f738b6252817326c08" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_referrals_referee" ON "referrals" ("referee_user_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_referrals_referrer_created" ON "referrals" ("referrer_user_id", "created_at", "id")
        `);
    await queryRunner.query(`
            ALTER TABLE "rewards_balances"
            ADD "discount_claims_count" integer NOT NULL DEFAULT '0'
        `);
    await queryRunner.query(`
            ALTER TABLE "rewards_balances"
            ADD "referral_points_awarded" integer NOT NULL DEFAULT '0'
        `);
    await queryRunner.query(`
            ALTER TABLE "rewards_balances"
            ADD "referral_signup_points_awarded" integer NOT NULL DEFAULT '0'
        `);
    await queryRunner.query(`
            ALTER TABLE "rewards_balances"
            ADD "referral_signups_count" integer NOT NULL DEFAULT '0'
        `);
    await queryRunner.query(`
            ALTER TABLE "rewards_balances"
            ADD "successful_referrals_count" integer NOT NULL DEFAULT '0'
        `);
    await queryRunner.query(`
            ALTER TABLE "rewards_balances"
            ADD "referral_code" character varying(16)
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_rewards_balances_referral_code" ON "rewards_balances" ("site_id", "referral_code")
        `);
    await queryRunner.query(`
            ALTER TABLE "discount_claims"
            ADD CONSTRAINT "FK_ecc2570bc513dfc145ff8a28d1d" FOREIGN KEY ("discount_code_id") REFERENCES "discount_codes"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "discount_claims"
            ADD CONSTRAINT "FK_0b063763c114412e7c6830d9bbe" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "referrals"
            ADD CONSTRAINT "FK_f23553d02832ad08a505cf382b8" FOREIGN KEY ("referrer_user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "referrals"
            ADD CONSTRAINT "FK_26662895e0e145945a636378e10" FOREIGN KEY ("referee_user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION claim_refused(text)`);
    await queryRunner.query(`
            ALTER TABLE "referrals" DROP CONSTRAINT "FK_26662895e0e145945a636378e10"
        `);
    await queryRunner.query(`
            ALTER TABLE "referrals" DROP CONSTRAINT "FK_f23553d02832ad08a505cf382b8"
        `);
    await queryRunner.query(`
            ALTER TABLE "discount_claims" DROP CONSTRAINT "FK_0b063763c114412e7c6830d9bbe"
        `);
    await queryRunner.query(`
            ALTER TABLE "discount_claims" DROP CONSTRAINT "FK_ecc2570bc513dfc145ff8a28d1d"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_rewards_balances_referral_code"
        `);
    await queryRunner.query(`
            ALTER TABLE "rewards_balances" DROP COLUMN "referral_code"
        `);
    await queryRunner.query(`
            ALTER TABLE "rewards_balances" DROP COLUMN "successful_referrals_count"
        `);
    await queryRunner.query(`
            ALTER TABLE "rewards_balances" DROP COLUMN "referral_signups_count"
        `);
    await queryRunner.query(`
            ALTER TABLE "rewards_balances" DROP COLUMN "referral_signup_points_awarded"
        `);
    await queryRunner.query(`
            ALTER TABLE "rewards_balances" DROP COLUMN "referral_points_awarded"
        `);
    await queryRunner.query(`
            ALTER TABLE "rewards_balances" DROP COLUMN "discount_claims_count"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_referrals_referrer_created"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_referrals_referee"
        `);
    await queryRunner.query(`
            DROP TABLE "referrals"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_discount_claims_user_code"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_discount_claims_once"
        `);
    await queryRunner.query(`
            DROP TABLE "discount_claims"
        `);
  }
}
