import type { DataSourceOptions } from 'typeorm';
import { ENTITIES } from './entities.js';
import { MIGRATIONS } from './migrations/index.js';

/** Pool size of the TypeORM connection; the embedded server's connection cap must exceed the sum of pools. */
export const DB_POOL_SIZE = 10;

/**
 * The one description of the database both the application and the TypeORM CLI (ormconfig.ts) use.
 * Schema changes only through migrations, run at start-up (DESIGN §2).
 */
export function dataSourceOptions(url: string): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsRun: true,
    migrationsTransactionMode: 'each',
    synchronize: false,
    // gen_random_uuid() is built into PostgreSQL 13+; PGlite has no extensions to install.
    uuidExtension: 'pgcrypto',
    installExtensions: false,
    extra: { max: DB_POOL_SIZE, connectionTimeoutMillis: 10_000 },
  };
}
