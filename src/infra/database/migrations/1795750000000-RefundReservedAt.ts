import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * `payment_transactions.refund_reserved_at`: held refunds are asked about two minutes after the newest refund was
 * reserved. They were picked by `updated_at`, which every confirmation or webhook about the payment moves, so
 * anyone calling endpoint 3's confirmation with the order id kept a held refund from ever being settled. Refunds
 * held now count from their row's last change, as before.
 */
export class RefundReservedAt1795750000000 implements MigrationInterface {
  name = 'RefundReservedAt1795750000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "public"."ix_payment_transactions_refund_held"
        `);
    await queryRunner.query(`
            ALTER TABLE "payment_transactions"
            ADD "refund_reserved_at" TIMESTAMP WITH TIME ZONE
        `);
    await queryRunner.query(`
            UPDATE "payment_transactions" SET "refund_reserved_at" = "updated_at" WHERE "refund_pending_cents" > 0
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_payment_transactions_refund_held" ON "payment_transactions" ("refund_reserved_at")
            WHERE refund_pending_cents > 0
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "public"."ix_payment_transactions_refund_held"
        `);
    await queryRunner.query(`
            ALTER TABLE "payment_transactions" DROP COLUMN "refund_reserved_at"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_payment_transactions_refund_held" ON "payment_transactions" ("updated_at")
            WHERE refund_pending_cents > 0
        `);
  }
}
