import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * `limit_holds`: a deleted account's running self-pause and spend limit, kept for its address (as a keyed
 * hash) until they lapse, so that registering the address again does not lift them. `expires_at` is indexed
 * for the sweep that deletes lapsed holds.
 */
export class LimitHolds1795650000000 implements MigrationInterface {
  name = 'LimitHolds1795650000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "limit_holds" (
                "site_id" character varying(64) NOT NULL,
                "address_hash" character(64) NOT NULL,
                "paused_until" TIMESTAMP WITH TIME ZONE,
                "monthly_spend_limit_cents" integer,
                "limit_until" TIMESTAMP WITH TIME ZONE,
                "month" character varying(7) NOT NULL,
                "spent_cents" integer NOT NULL DEFAULT '0',
                "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "ck_limit_holds_spent" CHECK ("spent_cents" >= 0),
                CONSTRAINT "ck_limit_holds_limit" CHECK (
                    "monthly_spend_limit_cents" IS NULL
                    OR "monthly_spend_limit_cents" >= 0
                ),
                CONSTRAINT "PK_c92f3287eded8dd183b9226db48" PRIMARY KEY ("site_id", "address_hash")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_limit_holds_expires_at" ON "limit_holds" ("expires_at")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "public"."ix_limit_holds_expires_at"
        `);
    await queryRunner.query(`
            DROP TABLE "limit_holds"
        `);
  }
}
