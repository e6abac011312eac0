import { type MigrationInterface, type QueryRunner } from 'typeorm';

export class SubscriptionTiersAndRaffles1795310459269 implements MigrationInterface {
  name = 'SubscriptionTiersAndRaffles1795310459269';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "raffles" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "site_id" character varying(64) NOT NULL,
                "item_id" character varying(100) NOT NULL,
                "collection_id" character varying(100),
                "locale_id" character varying(100),
                "cms_site_id" character varying(100),
                "name" character varying(200) NOT NULL,
                "slug" character varying(200),
                "campaign_name" character varying(200),
                "giveaway_type" character varying(50),
                "description" text,
                "long_description" text,
                "short_teaser" text,
                "details" text,
                "hero_header" text,
                "hero_description" text,
                "cta_text" text,
                "final_cta_heading" text,
                "final_cta_description" text,
                "main_image" text,
                "image_gallery" text,
                "quick_buy_options" text,
                "quick_wins" text,
                "what_you_can_win_1" text,
                "what_you_can_win_2" text,
                "what_you_can_win_3" text,
                "what_you_can_win_4" text,
                "worth_total" text,
                "worth_subline" text,
                "winner_names" text,
                "last_person_who_brought" text,
                "checkout_description" text,
                "checkout_success_url" character varying(1000),
                "checkout_failure_url" character varying(1000),
                "gatewaytwo_product_id" character varying(200),
                "currency" character(3) NOT NULL,
                "price_cents" integer NOT NULL,
                "points_required" integer NOT NULL DEFAULT '0',
                "points_enabled" boolean NOT NULL DEFAULT false,
                "points_multiplier" numeric(10, 4),
                "max_entries" integer,
                "total_entries_available" integer NOT NULL,
                "current_entries" integer NOT NULL DEFAULT '0',
                "entries_purchased" integer NOT NULL DEFAULT '0',
                "active" boolean NOT NULL DEFAULT false,
                "allow_free_entries" boolean NOT NULL DEFAULT false,
                "archived" boolean NOT NULL DEFAULT false,
                "closed" boolean NOT NULL DEFAULT false,
                "draft" boolean NOT NULL DEFAULT true,
                "is_drawn" boolean NOT NULL DEFAULT false,
                "start_date" TIMESTAMP WITH TIME ZONE NOT NULL,
                "end_date" TIMESTAMP WITH TIME ZONE NOT NULL,
                "drawn_at" TIMESTAMP WITH TIME ZONE,
                "published_on" TIMESTAMP WITH TIME ZONE,
                "closed_at" TIMESTAMP WITH TIME ZONE,
                "discount_tiers" jsonb NOT NULL DEFAULT '[]',
                "upsells" jsonb NOT NULL DEFAULT '[]',
                "mailer_email_params" jsonb NOT NULL DEFAULT '{}',
                "created_by" uuid,
                "draw_seed" character varying(64),
                "draw_seed_hash" character varying(64),
                CONSTRAINT "ck_raffles_dates" CHECK ("end_date" > "start_date"),
                CONSTRAINT "ck_raffles_price" CHECK ("price_cents" >= 0),
                CONSTRAINT "ck_raffles_purchased" CHECK (
                    "entries_purchased" >= 0
                    AND "entries_purchased" <= "current_entries"
                ),
                CONSTRAINT "ck_raffles_tickets" CHECK (
                    "current_entries" >= 0
                    AND "current_entries" <= "total_entries_available"
                ),
                CONSTRAINT "PK_052c636fce78a0481c29fab2aa1" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_raffles_site_public" ON "raffles" ("site_id", "end_date", "id")
            WHERE draft = false
                AND archived = false
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_raffles_site_created" ON "raffles" ("site_id", "created_at", "id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_raffles_item" ON "raffles" ("item_id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_raffles_site_item" ON "raffles" ("site_id", "item_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "subscription_tiers" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "site_id" character varying(64) NOT NULL,
                "name" character varying(100) NOT NULL,
                "name_normalized" character varying(100) NOT NULL,
                "display_name" character varying(200),
                "description" text,
                "active" boolean NOT NULL DEFAULT true,
                "amount_cents" integer NOT NULL,
                "currency" character(3) NOT NULL,
                "billing_interval" character varying(10) NOT NULL DEFAULT 'month',
                "trial_days" integer NOT NULL DEFAULT '0',
                "entry_credits_per_period" integer NOT NULL DEFAULT '0',
                "features" jsonb NOT NULL DEFAULT '[]',
                "sort_order" integer NOT NULL DEFAULT '0',
                "image_url" character varying(1000),
                CONSTRAINT "ck_subscription_tiers_counts" CHECK (
                    "amount_cents" >= 0
                    AND "entry_credits_per_period" >= 0
                    AND "trial_days" >= 0
                ),
                CONSTRAINT "PK_376aa3503bf3278d69af3d711b7" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_subscription_tiers_site_order" ON "subscription_tiers" ("site_id", "sort_order", "name_normalized")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_subscription_tiers_site_name" ON "subscription_tiers" ("site_id", "name_normalized")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "public"."uq_subscription_tiers_site_name"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_subscription_tiers_site_order"
        `);
    await queryRunner.query(`
            DROP TABLE "subscription_tiers"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_raffles_site_item"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_raffles_item"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_raffles_site_created"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_raffles_site_public"
        `);
    await queryRunner.query(`
            DROP TABLE "raffles"
        `);
  }
}
