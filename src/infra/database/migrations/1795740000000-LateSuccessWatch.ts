import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Reconciliation also asks, for a week after they were opened, about payments given up here (declined, or
 * cancelled as abandoned) and not fulfilled: their checkout may still take the money, and with the webhook lost
 * nothing else would settle it. Their index, by age.
 */
export class LateSuccessWatch1795740000000 implements MigrationInterface {
  name = 'LateSuccessWatch1795740000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE INDEX "ix_payment_transactions_late_watch" ON "payment_transactions" ("created_at")
            WHERE status IN ('failed', 'cancelled') AND fulfilled_at IS NULL
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "public"."ix_payment_transactions_late_watch"
        `);
  }
}
