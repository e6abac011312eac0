import { type MigrationInterface, type QueryRunner } from 'typeorm';

export class Subscriptions1795494021948 implements MigrationInterface {
  name = 'Subscriptions1795494021948';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "subscriptions" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "site_id" character varying(64) NOT NULL,
                "user_id" uuid NOT NULL,
                "tier_id" uuid NOT NULL,
                "status" character varying(30) NOT NULL,
                "amount_cents" integer NOT NULL,
                "currency" character(3) NOT NULL,
                "billing_interval" character varying(10) NOT NULL,
                "payment_method" character varying(40) NOT NULL DEFAULT 'card',
                "auto_renew" boolean NOT NULL DEFAULT true,
                "credits_used_this_period" integer NOT NULL DEFAULT '0',
                "entry_credits_per_period" integer NOT NULL DEFAULT '0',
                "trial_days" integer NOT NULL DEFAULT '0',
                "current_period_start" TIMESTAMP WITH TIME ZONE,
                "current_period_end" TIMESTAMP WITH TIME ZONE,
                "next_billing_date" TIMESTAMP WITH TIME ZONE,
                "subscription_start_date" TIMESTAMP WITH TIME ZONE,
                "trial_start_date" TIMESTAMP WITH TIME ZONE,
                "trial_end_date" TIMESTAMP WITH TIME ZONE,
                "cooling_off_expiry" TIMESTAMP WITH TIME ZONE,
                "paused_until" TIMESTAMP WITH TIME ZONE,
                "paused_at" TIMESTAMP WITH TIME ZONE,
                "cancelled_at" TIMESTAMP WITH TIME ZONE,
                "cancellation_reason" character varying(500),
                "gatewayone_registration_id" character varying(100),
                "gatewayone_schedule_id" character varying(100),
                "current_payment_id" uuid,
                "pending_payment_id" uuid,
                "past_due_since" TIMESTAMP WITH TIME ZONE,
                "failed_charges" integer NOT NULL DEFAULT '0',
                "reminded_for" TIMESTAMP WITH TIME ZONE,
                "streak_months" integer NOT NULL DEFAULT '0',
                "lifetime_months" integer NOT NULL DEFAULT '0',
                "milestones_awarded" jsonb NOT NULL DEFAULT '{}',
                "metadata" jsonb NOT NULL DEFAULT '{}',
                CONSTRAINT "ck_subscriptions_credits" CHECK (
                    "credits_used_this_period" >= 0
                    AND "entry_credits_per_period" >= 0
                ),
                CONSTRAINT "PK_a87248d73155605cf782be9ee5e" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_subscriptions_due" ON "subscriptions" ("next_billing_date")
            WHERE status IN ('active', 'trialing', 'past_due')
                AND auto_renew
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_subscriptions_site_created" ON "subscriptions" ("site_id", "created_at", "id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_subscriptions_user" ON "subscriptions" ("user_id", "created_at")
        `);
    await queryRunner.query(`
            ALTER TABLE "subscriptions"
            ADD CONSTRAINT "FK_d0a95ef8a28188364c546eb65c1" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "subscriptions"
            ADD CONSTRAINT "FK_c2d9de83b12e926d07ed0b083ec" FOREIGN KEY ("tier_id") REFERENCES "subscription_tiers"("id") ON DELETE RESTRICT ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "subscriptions" DROP CONSTRAINT "FK_c2d9de83b12e926d07ed0b083ec"
        `);
    await queryRunner.query(`
            ALTER TABLE "subscriptions" DROP CONSTRAINT "FK_d0a95ef8a28188364c546eb65c1"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_subscriptions_user"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_subscriptions_site_created"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_subscriptions_due"
        `);
    await queryRunner.query(`
            DROP TABLE "subscriptions"
        `);
  }
}
