import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * `subscriptions.pending_payment_claimed_at`: when the renewal run claimed the charge in flight. The look-up
 * of lost charges timed them from `updated_at`, which every credit spent (and every other edit) moves, so a
 * member spending credits kept a lost charge from ever being looked up or given up. Charges in flight
 * today take `updated_at`, the best guess there is. The look-up pages through them by id.
 */
export class ChargeClaimedAt1795690000000 implements MigrationInterface {
  name = 'ChargeClaimedAt1795690000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "subscriptions"
            ADD "pending_payment_claimed_at" TIMESTAMP WITH TIME ZONE
        `);
    await queryRunner.query(`
            UPDATE "subscriptions" SET "pending_payment_claimed_at" = "updated_at"
             WHERE "pending_payment_id" IS NOT NULL
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_subscriptions_charge_in_flight" ON "subscriptions" ("id")
            WHERE pending_payment_id IS NOT NULL
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "public"."ix_subscriptions_charge_in_flight"
        `);
    await queryRunner.query(`
            ALTER TABLE "subscriptions" DROP COLUMN "pending_payment_claimed_at"
        `);
  }
}
