import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * `subscriptions.paused_from`: the status a running pause began from, so a resume restores it (a trial
 * paused and resumed stays a trial). Memberships paused before it are filled in: a trial's end still ahead
 * of the pause's start means it was paused while trialing; any other resumes active, as before.
 */
export class PausedFrom1795660000000 implements MigrationInterface {
  name = 'PausedFrom1795660000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "subscriptions"
            ADD "paused_from" character varying(30)
        `);
    await queryRunner.query(`
            UPDATE "subscriptions"
               SET "paused_from" = CASE WHEN "trial_end_date" > "paused_at" THEN 'trialing' ELSE 'active' END
             WHERE "status" = 'paused'
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "subscriptions" DROP COLUMN "paused_from"
        `);
  }
}
