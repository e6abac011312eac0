import { type MigrationInterface, type QueryRunner } from 'typeorm';

/** The append-only points ledger and per-user balances (DESIGN §6 "Points"). */
export class AddPointsLedger1795311316608 implements MigrationInterface {
  name = 'AddPointsLedger1795311316608';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "point_transactions" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "site_id" character varying(64) NOT NULL,
                "user_id" uuid NOT NULL,
                "payment_transaction_id" uuid,
                "reason" character varying(500) NOT NULL,
                "transaction_type" character varying(20) NOT NULL,
                "created_by" uuid,
                "amount" integer NOT NULL,
                "ip_address" character varying(64),
                "user_agent" character varying(500),
                "metadata" jsonb NOT NULL DEFAULT '{}',
                CONSTRAINT "ck_point_transactions_sign" CHECK (
                    (
                        "transaction_type" IN ('earn', 'refund', 'bonus')
                        AND "amount" > 0
                    )
                    OR (
                        "transaction_type" = 'spend'
                        AND "amount" < 0
                    )
                    OR (
                        "transaction_type" = 'reversal'
                        AND "amount" <= 0
                    )
                    OR (
                        "transaction_type" = 'adjustment'
                        AND "amount" <> 0
                    )
                ),
                CONSTRAINT "ck_point_transactions_type" CHECK (
                    "transaction_type" IN (
                        'earn',
                        'spend',
                        'refund',
                        'reversal',
                        'adjustment',
                        'bonus'
                    )
                ),
                CONSTRAINT "PK_ceb5185b63f070e23d65509b0a7" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_point_transactions_earn_per_payment" ON "point_transactions" ("payment_transaction_id")
            WHERE "transaction_type" = 'earn'
                AND "payment_transaction_id" IS NOT NULL
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_point_transactions_payment" ON "point_transactions" ("payment_transaction_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_point_transactions_user_created" ON "point_transactions" ("user_id", "created_at", "id")
        `);
    await queryRunner.query(`
            CREATE TABLE "rewards_balances" (
                "user_id" uuid NOT NULL,
                "site_id" character varying(64) NOT NULL,
                "current_points" integer NOT NULL DEFAULT '0',
                "lifetime_earned" integer NOT NULL DEFAULT '0',
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "ck_rewards_balances_lifetime_earned" CHECK ("lifetime_earned" >= 0),
                CONSTRAINT "ck_rewards_balances_current_points" CHECK ("current_points" >= 0),
                CONSTRAINT "PK_a2b6e9b98b20ef5e1f2b67120b2" PRIMARY KEY ("user_id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_rewards_balances_site" ON "rewards_balances" ("site_id")
        `);
    await queryRunner.query(`
            ALTER TABLE "point_transactions"
            ADD CONSTRAINT "FK_56702c8b9e89190347707b75552" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "rewards_balances"
            ADD CONSTRAINT "FK_a2b6e9b98b20ef5e1f2b67120b2" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `); // The ledger is append-only: corrections are new entries. Rows leave only with their user (the
    // foreign key's ON DELETE CASCADE runs as a nested trigger, depth > 1).
    await queryRunner.query(`
            CREATE FUNCTION point_transactions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP = 'DELETE' AND pg_trigger_depth() > 1 THEN
                    RETURN OLD;
                END IF;
                RAISE EXCEPTION 'point_transactions is append-only; record a correcting entry instead'
                    USING ERRCODE = 'restrict_violation';
            END
            $$
        `);
    await queryRunner.query(`
            CREATE TRIGGER trg_point_transactions_append_only
            BEFORE UPDATE OR DELETE ON point_transactions
            FOR EACH ROW EXECUTE FUNCTION point_transactions_append_only()
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP TRIGGER trg_point_transactions_append_only ON point_transactions
        `);
    await queryRunner.query(`
            DROP FUNCTION point_transactions_append_only()
        `);
    await queryRunner.query(`
            ALTER TABLE "rewards_balances" DROP CONSTRAINT "FK_a2b6e9b98b20ef5e1f2b67120b2"
        `);
    await queryRunner.query(`
            ALTER TABLE "point_transactions" DROP CONSTRAINT "FK_56702c8b9e89190347707b75552"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_rewards_balances_site"
        `);
    await queryRunner.query(`
            DROP TABLE "rewards_balances"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_point_transactions_user_created"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_point_transactions_payment"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_point_transactions_earn_per_payment"
        `);
    await queryRunner.query(`
            DROP TABLE "point_transactions"
        `);
  }
}
