import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * `merch_order_items.recipient_cost_amount` holds a line's cost in its currency's own digits: three for the
 * dinars (1.234 KWD), which `numeric(12, 2)` rounded away. Widening keeps every amount it held.
 */
export class MerchLineCostDigits1795630000000 implements MigrationInterface {
  name = 'MerchLineCostDigits1795630000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "merch_order_items" ALTER COLUMN "recipient_cost_amount" TYPE numeric(15,3)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "merch_order_items" ALTER COLUMN "recipient_cost_amount" TYPE numeric(12,2)`,
    );
  }
}
