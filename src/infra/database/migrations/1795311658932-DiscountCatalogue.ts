import { type MigrationInterface, type QueryRunner } from 'typeorm';

export class DiscountCatalogue1795311658932 implements MigrationInterface {
  name = 'DiscountCatalogue1795311658932';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "discount_brands" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "site_id" character varying(64) NOT NULL,
                "name" character varying(200) NOT NULL,
                "slug" character varying(200) NOT NULL,
                "description" text,
                "collection_id" character varying(200),
                "item_id" character varying(200),
                "locale_id" character varying(200),
                "logo" character varying(1000),
                "logo_black_and_white" character varying(1000),
                "thumbnail" character varying(1000),
                "max_discount" character varying(100),
                "published_on" TIMESTAMP WITH TIME ZONE,
                "archived" boolean NOT NULL DEFAULT false,
                "draft" boolean NOT NULL DEFAULT false,
                CONSTRAINT "PK_ad5d31eac907eb93a3688591e99" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_discount_brands_site_name" ON "discount_brands" ("site_id", "name", "id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_discount_brands_site_slug" ON "discount_brands" ("site_id", "slug")
        `);
    await queryRunner.query(`
            CREATE TABLE "discount_codes" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "site_id" character varying(64) NOT NULL,
                "discount_brand_id" uuid NOT NULL,
                "title" character varying(200) NOT NULL,
                "description" text,
                "category" character varying(100),
                "terms" text,
                "code" character varying(64),
                "code_required" boolean NOT NULL DEFAULT true,
                "code_length" integer,
                "code_pattern" character varying(100),
                "prefix" character varying(32),
                "alphanumeric" boolean NOT NULL DEFAULT true,
                "is_bulk_code" boolean NOT NULL DEFAULT false,
                "allow_multiple_claims" boolean NOT NULL DEFAULT false,
                "generated_count" integer,
                "current_uses" integer NOT NULL DEFAULT '0',
                "max_uses" integer,
                "points_required" integer NOT NULL,
                "discount_percentage" double precision,
                "active" boolean NOT NULL DEFAULT true,
                "featured" boolean NOT NULL DEFAULT false,
                "valid_from" TIMESTAMP WITH TIME ZONE,
                "valid_until" TIMESTAMP WITH TIME ZONE,
                "partner_logo" character varying(1000),
                "partner_url" character varying(1000),
                "thumbnail" character varying(1000),
                "third_party_id" character varying(200),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                CONSTRAINT "PK_c0170a28d937472e9ce50fdce17" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_discount_codes_bulk_shape" ON "discount_codes" ("site_id", "prefix", "code_length")
            WHERE is_bulk_code
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_discount_codes_third_party" ON "discount_codes" ("site_id", "third_party_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_discount_codes_brand" ON "discount_codes" ("discount_brand_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_discount_codes_site_created" ON "discount_codes" ("site_id", "created_at", "id")
        `);
    await queryRunner.query(`
            CREATE TABLE "tags" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "site_id" character varying(64) NOT NULL,
                "name" character varying(100) NOT NULL,
                "slug" character varying(100) NOT NULL,
                "description" text,
                "color" character varying(32),
                "active" boolean NOT NULL DEFAULT true,
                CONSTRAINT "PK_e7dc17249a1148a1970748eda99" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_tags_site_name" ON "tags" ("site_id", "name", "id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_tags_site_slug" ON "tags" ("site_id", "slug")
        `);
    await queryRunner.query(`
            CREATE TABLE "discount_code_tags" (
                "discount_code_id" uuid NOT NULL,
                "tag_id" uuid NOT NULL,
                CONSTRAINT "PK_930b84dd957bce90a91e3bd2ee3" PRIMARY KEY ("discount_code_id", "tag_id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_discount_code_tags_tag" ON "discount_code_tags" ("tag_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "discount_unique_codes" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "site_id" character varying(64) NOT NULL,
                "discount_code_id" uuid NOT NULL,
                "code" character varying(64) NOT NULL,
                "claimed_by_user_id" uuid,
                "claimed_at" TIMESTAMP WITH TIME ZONE,
                CONSTRAINT "PK_b26d13dfc9ca27f856b1da9364e" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_discount_unique_codes_claimer" ON "discount_unique_codes" ("claimed_by_user_id", "discount_code_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_discount_unique_codes_unclaimed" ON "discount_unique_codes" ("discount_code_id")
            WHERE claimed_at IS NULL
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_discount_unique_codes_code" ON "discount_unique_codes" ("discount_code_id", "code")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_discount_unique_codes_site_code" ON "discount_unique_codes" ("site_id", "code")
        `);
    await queryRunner.query(`
            ALTER TABLE "discount_codes"
            ADD CONSTRAINT "FK_8eed3982f5bd31a4cc01f41111c" FOREIGN KEY ("discount_brand_id") REFERENCES "discount_brands"("id") ON DELETE RESTRICT ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "discount_code_tags"
            ADD CONSTRAINT "FK_05651b27e56f6a0f83d8469c15c" FOREIGN KEY ("discount_code_id") REFERENCES "discount_codes"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "discount_code_tags"
            ADD CONSTRAINT "FK_ae9f2bd11bbdc1cb4d084506009" FOREIGN KEY ("tag_id") REFERENCES "tags"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "discount_unique_codes"
            ADD CONSTRAINT "FK_ab8bc7d161b20397b1ace61750a" FOREIGN KEY ("discount_code_id") REFERENCES "discount_codes"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "discount_unique_codes"
            ADD CONSTRAINT "FK_96ae2b8a124860a3be44f8a92eb" FOREIGN KEY ("claimed_by_user_id") REFERENCES "users"("id") ON DELETE
            SET NULL ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "discount_unique_codes" DROP CONSTRAINT "FK_96ae2b8a124860a3be44f8a92eb"
        `);
    await queryRunner.query(`
            ALTER TABLE "discount_unique_codes" DROP CONSTRAINT "FK_ab8bc7d161b20397b1ace61750a"
        `);
    await queryRunner.query(`
            ALTER TABLE "discount_code_tags" DROP CONSTRAINT "FK_ae9f2bd11bbdc1cb4d084506009"
        `);
    await queryRunner.query(`
            ALTER TABLE "discount_code_tags" DROP CONSTRAINT "FK_05651b27e56f6a0f83d8469c15c"
        `);
    await queryRunner.query(`
            ALTER TABLE "discount_codes" DROP CONSTRAINT "FK_8eed3982f5bd31a4cc01f41111c"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_discount_unique_codes_site_code"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_discount_unique_codes_code"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_discount_unique_codes_unclaimed"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_discount_unique_codes_claimer"
        `);
    await queryRunner.query(`
            DROP TABLE "discount_unique_codes"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_discount_code_tags_tag"
        `);
    await queryRunner.query(`
            DROP TABLE "discount_code_tags"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_tags_site_slug"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_tags_site_name"
        `);
    await queryRunner.query(`
            DROP TABLE "tags"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_discount_codes_site_created"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_discount_codes_brand"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_discount_codes_third_party"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_discount_codes_bulk_shape"
        `);
    await queryRunner.query(`
            DROP TABLE "discount_codes"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_discount_brands_site_slug"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_discount_brands_site_name"
        `);
    await queryRunner.query(`
            DROP TABLE "discount_brands"
        `);
  }
}
