import { type MigrationInterface, type QueryRunner } from 'typeorm';

/** Idempotency-Key claims and stored answers (DESIGN §6). */
export class AddIdempotencyKeys1795311316607 implements MigrationInterface {
  name = 'AddIdempotencyKeys1795311316607';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "idempotency_keys" (
                "scope" text NOT NULL,
                "key" text NOT NULL,
                "request_hash" character varying(64) NOT NULL,
                "state" character varying(20) NOT NULL,
                "owner" uuid NOT NULL,
                "response_status" integer,
                "response_body" json,
                "response_headers" jsonb,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL,
                CONSTRAINT "ck_idempotency_keys_state" CHECK ("state" IN ('in_progress', 'completed')),
                CONSTRAINT "PK_15de2f76fa9f27ad8f330983607" PRIMARY KEY ("scope", "key")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_idempotency_keys_expires_at" ON "idempotency_keys" ("expires_at")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "public"."ix_idempotency_keys_expires_at"
        `);
    await queryRunner.query(`
            DROP TABLE "idempotency_keys"
        `);
  }
}
