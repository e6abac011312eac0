import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '#app/infra/database/embedded-postgres.js';

/**
 * Makes the run's database and hands its address to the test files in E2E_DATABASE_URL.
 * On PostgreSQL a fresh database per run, dropped at the end; on PGlite an in-memory instance.
 */
export default async function globalSetup(): Promise<void> {
  const server = process.env.TEST_DATABASE_URL;
  if (server) {
    const name = `e2e_${Date.now()}_${randomBytes(3).toString('hex')}`;
    const admin = new Client({ connectionString: server });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    // A commit does not wait for its WAL to reach the disk: the run's database is thrown away, and no test
    // crashes the server. Waiting on the disk (its latency, shared with whatever else the machine writes)
    // made a suite several times slower when another ran beside it, for nothing a test asserts.
    await admin.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
    await admin.end();
    const url = new URL(server);
    url.pathname = `/${name}`;
    process.env.E2E_DATABASE_URL = url.toString();
    process.env.E2E_DATABASE_ENGINE = 'postgres';
    (globalThis as { __e2eDrop?: () => Promise<void> }).__e2eDrop = async () => {
      const client = new Client({ connectionString: server });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    };
    return;
  }
  const embedded = await startEmbeddedPostgres(null);
  process.env.E2E_DATABASE_URL = embedded.url;
  process.env.E2E_DATABASE_ENGINE = 'pglite';
  (globalThis as { __e2eDrop?: () => Promise<void> }).__e2eDrop = () => embedded.stop();
}
