import { type MigrationInterface, type QueryRunner } from 'typeorm';

/** Monthly spend limits, self-pause and the monthly spend counter (DESIGN §6). */
export class AddResponsiblePlay1795311316609 implements MigrationInterface {
  name = 'AddResponsiblePlay1795311316609';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "user_limits" (
                "user_id" uuid NOT NULL,
                "monthly_spend_limit_cents" integer,
                "pending_limit_cents" integer,
                "pending_effective_at" TIMESTAMP WITH TIME ZONE,
                "paused_until" TIMESTAMP WITH TIME ZONE,
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "ck_user_limits_pending_time" CHECK (
                    "pending_limit_cents" IS NULL
                    OR "pending_effective_at" IS NOT NULL
                ),
                CONSTRAINT "ck_user_limits_pending" CHECK (
                    "pending_limit_cents" IS NULL
                    OR "pending_limit_cents" >= 0
                ),
                CONSTRAINT "ck_user_limits_limit" CHECK (
                    "monthly_spend_limit_cents" IS NULL
                    OR "monthly_spend_limit_cents" >= 0
                ),
                CONSTRAINT "PK_75a80f26e54df4194d15bea6668" PRIMARY KEY ("user_id")
            )
        `);
    await queryRunner.query(`
            CREATE TABLE "user_monthly_spend" (
                "user_id" uuid NOT NULL,
                "month" character varying(7) NOT NULL,
                "spent_cents" integer NOT NULL DEFAULT '0',
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "ck_user_monthly_spend_month" CHECK ("month" ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'),
                CONSTRAINT "ck_user_monthly_spend_spent" CHECK ("spent_cents" >= 0),
                CONSTRAINT "PK_d8db17a9ceea8ed139007388bc1" PRIMARY KEY ("user_id", "month")
            )
        `);
    await queryRunner.query(`
            ALTER TABLE "user_limits"
            ADD CONSTRAINT "FK_75a80f26e54df4194d15bea6668" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "user_monthly_spend"
            ADD CONSTRAINT "FK_49d6c8c3d950468e750e7a4543a" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "user_monthly_spend" DROP CONSTRAINT "FK_49d6c8c3d950468e750e7a4543a"
        `);
    await queryRunner.query(`
            ALTER TABLE "user_limits" DROP CONSTRAINT "FK_75a80f26e54df4194d15bea6668"
        `);
    await queryRunner.query(`
            DROP TABLE "user_monthly_spend"
        `);
    await queryRunner.query(`
            DROP TABLE "user_limits"
        `);
  }
}
