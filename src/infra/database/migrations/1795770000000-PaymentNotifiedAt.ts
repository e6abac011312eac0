import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * `payment_transactions.notified_at`: the purchase e-mails of a payment are queued once. The notify job claims
 * the payment here in the transaction that queues them, so pg-boss running the job again (a worker stopped
 * before it marked the job done) sends nothing twice. Payments settled before this have no mark: a job of
 * theirs still queued sends as it would have.
 */
export class PaymentNotifiedAt1795770000000 implements MigrationInterface {
  name = 'PaymentNotifiedAt1795770000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "payment_transactions"
            ADD "notified_at" TIMESTAMP WITH TIME ZONE
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "payment_transactions" DROP COLUMN "notified_at"
        `);
  }
}
