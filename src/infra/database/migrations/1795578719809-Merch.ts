import { type MigrationInterface, type QueryRunner } from 'typeorm';

export class Merch1795578719809 implements MigrationInterface {
  name = 'Merch1795578719809';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "merch_order_items" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "merch_order_id" uuid NOT NULL,
                "merch_product_id" uuid NOT NULL,
                "position" smallint NOT NULL DEFAULT '0',
                "sku" character varying(100) NOT NULL,
                "sizing" character varying(32) NOT NULL,
                "copies" integer NOT NULL,
                "recipient_cost_amount" numeric(12, 2) NOT NULL,
                "recipient_cost_currency" character(3) NOT NULL,
                "assets" jsonb NOT NULL DEFAULT '{}',
                "attributes" jsonb NOT NULL DEFAULT '{}',
                CONSTRAINT "ck_merch_order_items_copies" CHECK ("copies" > 0),
                CONSTRAINT "PK_949e80a10cbe8246f112f8728d4" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_merch_order_items_order" ON "merch_order_items" ("merch_order_id", "position")
        `);
    await queryRunner.query(`
            CREATE TABLE "merch_orders" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "site_id" character varying(64) NOT NULL,
                "user_id" uuid NOT NULL,
                "checkout_id" character varying(255),
                "payment_id" uuid,
                "fulfilment_order_id" character varying(255),
                "callback_token" character varying(64) NOT NULL,
                "callback_url" character varying(1000) NOT NULL,
                "idempotency_key" uuid NOT NULL,
                "status_stage" character varying(32) NOT NULL DEFAULT 'awaiting_payment',
                "status_details" jsonb NOT NULL DEFAULT '{}',
                "charges" jsonb NOT NULL DEFAULT '[]',
                "shipments" jsonb NOT NULL DEFAULT '[]',
                "metadata" jsonb NOT NULL DEFAULT '{}',
                "amount_cents" integer NOT NULL,
                "currency" character(3) NOT NULL,
                "shipping_method" character varying(32) NOT NULL,
                "recipient_name" character varying(200) NOT NULL,
                "recipient_email" character varying(320),
                "recipient_phone" character varying(50),
                "address_line1" character varying(200) NOT NULL,
                "address_line2" character varying(200),
                "town_or_city" character varying(100) NOT NULL,
                "state_or_county" character varying(100),
                "postal_or_zip_code" character varying(20) NOT NULL,
                "country_code" character(2) NOT NULL,
                CONSTRAINT "PK_86c9202c8317fd484580290ed8d" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_merch_orders_callback_token" ON "merch_orders" ("callback_token")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_merch_orders_payment" ON "merch_orders" ("payment_id")
            WHERE "payment_id" IS NOT NULL
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_merch_orders_site_stage_created" ON "merch_orders" ("site_id", "status_stage", "created_at", "id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_merch_orders_site_created" ON "merch_orders" ("site_id", "created_at", "id")
        `);
    await queryRunner.query(`
            CREATE TABLE "merch_products" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "site_id" character varying(64) NOT NULL,
                "name" character varying(200) NOT NULL,
                "description" text,
                "sku" character varying(100) NOT NULL,
                "amount_cents" integer NOT NULL,
                "currency" character(3) NOT NULL,
                "sizing" character varying(32) NOT NULL DEFAULT 'fillPrintArea',
                "attributes" jsonb NOT NULL DEFAULT '{}',
                "assets" jsonb NOT NULL DEFAULT '{}',
                "active" boolean NOT NULL DEFAULT true,
                CONSTRAINT "ck_merch_products_amount" CHECK ("amount_cents" >= 0),
                CONSTRAINT "PK_c1eaf01bb4dd2952db1c3e1a9bb" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_merch_products_site" ON "merch_products" ("site_id", "active", "created_at")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "public"."ix_merch_products_site"
        `);
    await queryRunner.query(`
            DROP TABLE "merch_products"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_merch_orders_site_created"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_merch_orders_site_stage_created"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_merch_orders_payment"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_merch_orders_callback_token"
        `);
    await queryRunner.query(`
            DROP TABLE "merch_orders"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_merch_order_items_order"
        `);
    await queryRunner.query(`
            DROP TABLE "merch_order_items"
        `);
  }
}
