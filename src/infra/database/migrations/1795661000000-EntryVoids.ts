import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * `raffle_entries.voided_at`, `void_reason`: an entry taken out of its raffle's draw before the close (its
 * payment refunded whole, its account erased). The row and its ticket range stay, a financial record; the
 * ticket list leaves it out. Nullable, no default: adding them rewrites nothing.
 */
export class EntryVoids1795661000000 implements MigrationInterface {
  name = 'EntryVoids1795661000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "raffle_entries" ADD "voided_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "raffle_entries" ADD "void_reason" character varying(20)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "raffle_entries" DROP COLUMN "void_reason"`);
    await queryRunner.query(`ALTER TABLE "raffle_entries" DROP COLUMN "voided_at"`);
  }
}
