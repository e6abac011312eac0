import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * `payment_transactions.reconciled_at`: when reconciliation last asked the gateway about an open payment.
 * Its backoff counts from there, so checkouts abandoned long ago no longer take every run's batch; the index
 * of open payments is keyed on it in place of (status, created_at), which nothing else read.
 */
export class ReconcileBackoff1795670000000 implements MigrationInterface {
  name = 'ReconcileBackoff1795670000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "public"."ix_payment_transactions_pending"
        `);
    await queryRunner.query(`
            ALTER TABLE "payment_transactions"
            ADD "reconciled_at" TIMESTAMP WITH TIME ZONE
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_payment_transactions_reconcile" ON "payment_transactions" ("reconciled_at", "created_at")
            WHERE status IN ('pending', 'review')
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "public"."ix_payment_transactions_reconcile"
        `);
    await queryRunner.query(`
            ALTER TABLE "payment_transactions" DROP COLUMN "reconciled_at"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_payment_transactions_pending" ON "payment_transactions" ("status", "created_at")
            WHERE status IN ('pending', 'review')
        `);
  }
}
