import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * `payment_claim_lost(payment)`: raises SQLSTATE P0001 with message CLAIM_LOST and the payment's id as its
 * detail. A sale's claim sent in one message with the whole fulfilment and its COMMIT (issue 9) calls it
 * when it claims nothing (another caller won, or the payment moved since it was read), so that nothing
 * after it in that message runs.
 */
export class PaymentClaimLostFunction1795600000000 implements MigrationInterface {
  name = 'PaymentClaimLostFunction1795600000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE FUNCTION payment_claim_lost(payment uuid) RETURNS boolean LANGUAGE plpgsql AS $$
            BEGIN
              RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'CLAIM_LOST', DETAIL = payment::text;
            END
            $$
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION payment_claim_lost(uuid)`);
  }
}
