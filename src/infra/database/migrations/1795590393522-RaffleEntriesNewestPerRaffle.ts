import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The newest entries of each raffle a list shows, as a top-N per raffle (bench:explain at 1M entries: the
 * public raffle list read every entry of its raffles).
 */

export class RaffleEntriesNewestPerRaffle1795590393522 implements MigrationInterface {
  name = 'RaffleEntriesNewestPerRaffle1795590393522';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE INDEX "ix_raffle_entries_raffle_created" ON "raffle_entries" ("raffle_id", "created_at", "id")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "public"."ix_raffle_entries_raffle_created"
        `);
  }
}
