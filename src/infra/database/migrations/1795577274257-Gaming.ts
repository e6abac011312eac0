import { type MigrationInterface, type QueryRunner } from 'typeorm';

export class Gaming1795577274257 implements MigrationInterface {
  name = 'Gaming1795577274257';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "bonus_credits" (
                "user_id" uuid NOT NULL,
                "site_id" character varying(64) NOT NULL,
                "credits" integer NOT NULL DEFAULT '0',
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "ck_bonus_credits_credits" CHECK ("credits" >= 0),
                CONSTRAINT "PK_cbb163952fbfd784a2cfad2d967" PRIMARY KEY ("user_id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_bonus_credits_site" ON "bonus_credits" ("site_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "spin_claims" (
                "jti" uuid NOT NULL,
                "site_id" character varying(64) NOT NULL,
                "user_id" uuid,
                "segment_id" integer NOT NULL,
                "credits" integer NOT NULL,
                "claimed_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_c403b6280e4638639563889f339" PRIMARY KEY ("jti")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "ux_spin_claims_reward" ON "spin_claims" ("site_id", "user_id")
            WHERE "credits" > 0
        `);
    await queryRunner.query(`
            ALTER TABLE "bonus_credits"
            ADD CONSTRAINT "FK_cbb163952fbfd784a2cfad2d967" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "spin_claims"
            ADD CONSTRAINT "FK_11a86b415e9aed21425964083e3" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE
            SET NULL ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "spin_claims" DROP CONSTRAINT "FK_11a86b415e9aed21425964083e3"
        `);
    await queryRunner.query(`
            ALTER TABLE "bonus_credits" DROP CONSTRAINT "FK_cbb163952fbfd784a2cfad2d967"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ux_spin_claims_reward"
        `);
    await queryRunner.query(`
            DROP TABLE "spin_claims"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_bonus_credits_site"
        `);
    await queryRunner.query(`
            DROP TABLE "bonus_credits"
        `);
  }
}
