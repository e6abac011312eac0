import { type DataSource, MigrationExecutor } from 'typeorm';

/** Names the advisory lock migrators take (any 64-bit key no other lock uses). */
const MIGRATION_LOCK = 'typeorm.migrations';

/**
 * Runs the pending migrations at start-up, one instance at a time: in one transaction that first takes
 * an advisory lock, so replicas starting together on one database do not both apply a migration (the
 * second "already exists" stopped it). The one that waited reads the migrations table after the first
 * committed and finds nothing pending. On PGlite the transaction alone serialises them. A failure rolls
 * the whole run back: the database stays on the schema the previous version knew.
 */
export async function migrateExclusively(dataSource: DataSource): Promise<void> {
  const runner = dataSource.createQueryRunner();
  try {
    await runner.startTransaction();
    await runner.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [MIGRATION_LOCK]);
    const executor = new MigrationExecutor(dataSource, runner);
    executor.transaction = 'all';
    await executor.executePendingMigrations();
    await runner.commitTransaction();
  } catch (error) {
    if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
    throw error;
  } finally {
    await runner.release();
  }
}
