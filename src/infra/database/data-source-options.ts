import type { DataSourceOptions } from 'typeorm';
import { ENTITIES } from './entities.js';
import { MIGRATIONS } from './migrations/index.js';

/** Pool size of the TypeORM connection; the embedded server's connection cap must exceed the sum of pools. */
export const DB_POOL_SIZE = 10;

/**
 * The pool keeps every connection it opens (`min` = `max`). The driver's default closes one after 10 s idle,
 * so the first rush after a quiet spell (a raffle's launch) waited for new server processes to start, log in,
 * warm their caches and prepare the sale's kept plans: in the purchase benchmark the first hundred buyers at
 * 50 connections took 450-730 ms against 180 ms after (docs/DECISIONS.md, "A warm pool").
 */
export const DB_POOL = { max: DB_POOL_SIZE, min: DB_POOL_SIZE, connectionTimeoutMillis: 10_000 } as const;

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
    extra: { ...DB_POOL },
  };
}
