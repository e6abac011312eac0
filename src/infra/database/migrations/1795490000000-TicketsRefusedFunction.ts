import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * `tickets_refused(state)`: raises SQLSTATE P0001 with message TICKETS_REFUSED and the raffle's state as
 * its detail. The raffle counter's statement calls it when it takes no tickets, so that statement can be
 * sent together with COMMIT in one round trip (issue 9): a refusal aborts the transaction instead of
 * letting the COMMIT after it keep what came before.
 */
export class TicketsRefusedFunction1795490000000 implements MigrationInterface {
  name = 'TicketsRefusedFunction1795490000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE FUNCTION tickets_refused(state jsonb) RETURNS integer LANGUAGE plpgsql AS $$
            BEGIN
              RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'TICKETS_REFUSED', DETAIL = state::text;
            END
            $$
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION tickets_refused(jsonb)`);
  }
}
