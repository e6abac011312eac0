import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * `users.last_failed_login_at`: failed logins count towards a lock only within 15 minutes of one another; until
 * now they never expired, so occasional mistakes over months locked the account. Counts in progress keep
 * counting for one more window.
 */
export class LastFailedLogin1795720000000 implements MigrationInterface {
  name = 'LastFailedLogin1795720000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "users"
            ADD "last_failed_login_at" TIMESTAMP WITH TIME ZONE
        `);
    await queryRunner.query(`
            UPDATE "users" SET "last_failed_login_at" = now() WHERE "failed_login_attempts" > 0
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "users" DROP COLUMN "last_failed_login_at"
        `);
  }
}
