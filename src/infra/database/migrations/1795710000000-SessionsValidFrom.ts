import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * `users.sessions_valid_from`: when every session of the user was ended (a password set or reset). Access
 * tokens issued before it are refused at once; until now they worked until they expired (15 minutes).
 */
export class SessionsValidFrom1795710000000 implements MigrationInterface {
  name = 'SessionsValidFrom1795710000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "users"
            ADD "sessions_valid_from" TIMESTAMP WITH TIME ZONE
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "users" DROP COLUMN "sessions_valid_from"
        `);
  }
}
