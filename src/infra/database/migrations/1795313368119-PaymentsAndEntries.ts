import { type MigrationInterface, type QueryRunner } from 'typeorm';

export class PaymentsAndEntries1795313368119 implements MigrationInterface {
  name = 'PaymentsAndEntries1795313368119';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "inbound_events" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "provider" character varying(30) NOT NULL,
                "event_key" character varying(300) NOT NULL,
                "event_type" character varying(60),
                "site_id" character varying(64),
                "payment_transaction_id" uuid,
                "payload" jsonb NOT NULL,
                "status" character varying(20) NOT NULL DEFAULT 'received',
                "attempts" integer NOT NULL DEFAULT '0',
                "last_error" character varying(1000),
                "processed_at" TIMESTAMP WITH TIME ZONE,
                CONSTRAINT "PK_b76e26fa0121da742b191b7ded0" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_inbound_events_site" ON "inbound_events" ("site_id", "created_at")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_inbound_events_provider_status" ON "inbound_events" ("provider", "status", "created_at")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_inbound_events_key" ON "inbound_events" ("provider", "event_key")
        `);
    await queryRunner.query(`
            CREATE TABLE "payment_transactions" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "site_id" character varying(64) NOT NULL,
                "user_id" uuid,
                "gateway" character varying(20) NOT NULL,
                "checkout_id" character varying(100),
                "gateway_transaction_id" character varying(100),
                "currency" character(3) NOT NULL,
                "amount_cents" integer NOT NULL,
                "refunded_cents" integer NOT NULL DEFAULT '0',
                "refund_pending_cents" integer NOT NULL DEFAULT '0',
                "description" character varying(500),
                "payment_method" character varying(40),
                "status" character varying(20) NOT NULL DEFAULT 'pending',
                "fraud_score" numeric(6, 2),
                "metadata" jsonb NOT NULL DEFAULT '{}',
                "purpose" character varying(20) NOT NULL,
                "raffle_id" uuid,
                "order_details" jsonb NOT NULL DEFAULT '{}',
                "new_account" boolean NOT NULL DEFAULT false,
                "spend_month" character varying(7),
                "ip_address" character varying(64),
                "user_agent" character varying(500),
                "webhook_received_at" TIMESTAMP WITH TIME ZONE,
                "webhook_data" jsonb,
                "gateway_response" jsonb,
                "subscription_id" uuid,
                "fulfilled_at" TIMESTAMP WITH TIME ZONE,
                "fulfilment" character varying(30),
                CONSTRAINT "PK_d32b3c6b0d2c1d22604cbcc8c49" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_payment_transactions_checkout" ON "payment_transactions" ("gateway", "checkout_id")
            WHERE checkout_id IS NOT NULL
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_payment_transactions_pending" ON "payment_transactions" ("status", "created_at")
            WHERE status IN ('pending', 'review')
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_payment_transactions_user_created" ON "payment_transactions" ("user_id", "created_at")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_payment_transactions_site_created" ON "payment_transactions" ("site_id", "created_at", "id")
        `);
    await queryRunner.query(`
            CREATE TABLE "raffle_entries" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "raffle_id" uuid NOT NULL,
                "user_id" uuid NOT NULL,
                "site_id" character varying(64) NOT NULL,
                "method" character varying(10) NOT NULL,
                "entries_count" integer NOT NULL,
                "ticket_from" integer NOT NULL,
                "ticket_to" integer NOT NULL,
                "points_spent" integer NOT NULL DEFAULT '0',
                "payment_transaction_id" uuid,
                "created_by" uuid,
                "note" character varying(500),
                "ip_address" character varying(64),
                "user_agent" character varying(500),
                CONSTRAINT "PK_41d589422354bba645c284cf174" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_raffle_entries_free" ON "raffle_entries" ("raffle_id", "user_id")
            WHERE method = 'free'
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_raffle_entries_payment" ON "raffle_entries" ("payment_transaction_id")
            WHERE payment_transaction_id IS NOT NULL
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_raffle_entries_user_created" ON "raffle_entries" ("user_id", "created_at")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_raffle_entries_raffle_tickets" ON "raffle_entries" ("raffle_id", "ticket_from")
        `);
    await queryRunner.query(`
            CREATE TABLE "raffle_user_entries" (
                "raffle_id" uuid NOT NULL,
                "user_id" uuid NOT NULL,
                "entries_count" integer NOT NULL,
                CONSTRAINT "PK_6f9315064dc4c882f5b669e245d" PRIMARY KEY ("raffle_id", "user_id")
            )
        `);
    await queryRunner.query(`
            ALTER TABLE "payment_transactions"
            ADD CONSTRAINT "FK_77fab0556decc83a81a5bf8c25d" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE
            SET NULL ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "raffle_entries"
            ADD CONSTRAINT "FK_c8d5595a86be987379c277527aa" FOREIGN KEY ("raffle_id") REFERENCES "raffles"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "raffle_entries"
            ADD CONSTRAINT "FK_2df7de5f9230fbc13eb9e3b5c88" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "raffle_entries" DROP CONSTRAINT "FK_2df7de5f9230fbc13eb9e3b5c88"
        `);
    await queryRunner.query(`
            ALTER TABLE "raffle_entries" DROP CONSTRAINT "FK_c8d5595a86be987379c277527aa"
        `);
    await queryRunner.query(`
            ALTER TABLE "payment_transactions" DROP CONSTRAINT "FK_77fab0556decc83a81a5bf8c25d"
        `);
    await queryRunner.query(`
            DROP TABLE "raffle_user_entries"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_raffle_entries_raffle_tickets"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_raffle_entries_user_created"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_raffle_entries_payment"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_raffle_entries_free"
        `);
    await queryRunner.query(`
            DROP TABLE "raffle_entries"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_payment_transactions_site_created"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_payment_transactions_user_created"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_payment_transactions_pending"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_payment_transactions_checkout"
        `);
    await queryRunner.query(`
            DROP TABLE "payment_transactions"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_inbound_events_key"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_inbound_events_provider_status"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_inbound_events_site"
        `);
    await queryRunner.query(`
            DROP TABLE "inbound_events"
        `);
  }
}
