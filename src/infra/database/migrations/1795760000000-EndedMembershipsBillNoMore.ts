import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * A membership that will not be charged again (cancelled, ending at its period's end, expired) has no
 * `next_billing_date` from now on; the ones that ended before keep the date they had, which told their members
 * when they would be charged. Cleared here once. Not reversible: the dates meant nothing.
 */
export class EndedMembershipsBillNoMore1795760000000 implements MigrationInterface {
  name = 'EndedMembershipsBillNoMore1795760000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            UPDATE "subscriptions" SET "next_billing_date" = NULL
             WHERE "status" IN ('cancelled', 'pending_cancellation', 'expired') AND "next_billing_date" IS NOT NULL
        `);
  }

  public async down(): Promise<void> {
    // Nothing to restore: the dates cleared named no charge.
  }
}
