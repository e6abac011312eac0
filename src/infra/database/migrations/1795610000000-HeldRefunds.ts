import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * `ix_payment_transactions_refund_held`: the payments with a refund reserved, oldest change first — what the
 * reconciliation job asks the gateway about when a refund's answer was lost (or its process stopped midway).
 * Partial: at any time almost no payment has one.
 */
export class HeldRefunds1795610000000 implements MigrationInterface {
  name = 'HeldRefunds1795610000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE INDEX "ix_payment_transactions_refund_held" ON "payment_transactions" ("updated_at")
            WHERE refund_pending_cents > 0
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_payment_transactions_refund_held"`);
  }
}
