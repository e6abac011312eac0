import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Endpoint 3 confirms an order named by the gateway's payment id (`payment_id`, as its answer gives it once
 * the payment is known), not only by the checkout's: the look-up needs an index on it.
 */
export class GatewayPaymentIndex1795700000000 implements MigrationInterface {
  name = 'GatewayPaymentIndex1795700000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE INDEX "ix_payment_transactions_gateway_payment" ON "payment_transactions" ("gateway", "gateway_transaction_id")
            WHERE gateway_transaction_id IS NOT NULL
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "public"."ix_payment_transactions_gateway_payment"
        `);
  }
}
