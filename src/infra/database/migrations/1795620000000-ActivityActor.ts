import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * `activity_logs.actor_id`: who made the request an entry records, when signed in. Staff acting on a member's
 * records (a refund, a points adjustment) are not that member: the member's own view leaves out the staff's
 * ip address, user agent and session.
 */
export class ActivityActor1795620000000 implements MigrationInterface {
  name = 'ActivityActor1795620000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "activity_logs" ADD "actor_id" uuid`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "activity_logs" DROP COLUMN "actor_id"`);
  }
}
