import { type MigrationInterface, type QueryRunner } from 'typeorm';

export class Draws1795579744530 implements MigrationInterface {
  name = 'Draws1795579744530';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "raffle_instant_tickets" (
                "raffle_id" uuid NOT NULL,
                "ticket" integer NOT NULL,
                "prize" character varying(200) NOT NULL,
                "entry_id" uuid,
                CONSTRAINT "PK_66da7815fca3ce0c9c4f878a9bb" PRIMARY KEY ("raffle_id", "ticket")
            )
        `);
    await queryRunner.query(`
            CREATE TABLE "raffle_winners" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "raffle_id" uuid NOT NULL,
                "entry_id" uuid NOT NULL,
                "user_id" uuid NOT NULL,
                "site_id" character varying(64) NOT NULL,
                "giveaway" character varying(10) NOT NULL,
                "giveaway_reference" character varying(100),
                "prize_description" text,
                "image" text,
                "ticket" integer NOT NULL,
                "draw_index" integer,
                "public_name" character varying(200) NOT NULL,
                "date_won" TIMESTAMP WITH TIME ZONE NOT NULL,
                "claimed" boolean NOT NULL DEFAULT false,
                "claimed_at" TIMESTAMP WITH TIME ZONE,
                CONSTRAINT "PK_ce80850a3f11d32d96bbcfb0649" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_raffle_winners_unclaimed" ON "raffle_winners" ("site_id", "created_at")
            WHERE claimed = false
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_raffle_winners_ticket" ON "raffle_winners" ("raffle_id", "giveaway", "ticket")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_raffle_winners_draw_entry" ON "raffle_winners" ("raffle_id", "entry_id")
            WHERE giveaway = 'draw'
        `);
    await queryRunner.query(`
            ALTER TABLE "raffles"
            ADD "ticket_list_hash" character varying(64)
        `);
    await queryRunner.query(`
            ALTER TABLE "raffles"
            ADD "ticket_count" integer
        `);
    await queryRunner.query(`
            ALTER TABLE "raffles"
            ADD "draw_beacon" character varying(200)
        `);
    await queryRunner.query(`
            ALTER TABLE "raffles"
            ADD "instant_wins" jsonb NOT NULL DEFAULT '[]'
        `);
    await queryRunner.query(`
            ALTER TABLE "raffles"
            ADD "instant_win_total" integer
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "raffles" DROP COLUMN "instant_win_total"
        `);
    await queryRunner.query(`
            ALTER TABLE "raffles" DROP COLUMN "instant_wins"
        `);
    await queryRunner.query(`
            ALTER TABLE "raffles" DROP COLUMN "draw_beacon"
        `);
    await queryRunner.query(`
            ALTER TABLE "raffles" DROP COLUMN "ticket_count"
        `);
    await queryRunner.query(`
            ALTER TABLE "raffles" DROP COLUMN "ticket_list_hash"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_raffle_winners_draw_entry"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_raffle_winners_ticket"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_raffle_winners_unclaimed"
        `);
    await queryRunner.query(`
            DROP TABLE "raffle_winners"
        `);
    await queryRunner.query(`
            DROP TABLE "raffle_instant_tickets"
        `);
  }
}
