import { Client, type Pool } from 'pg';
import { DB_POOL_SIZE } from '#app/infra/database/data-source-options.js';
import { createTestApp, type TestApp } from '../support/app';

const onPostgres = !!process.env.TEST_DATABASE_URL;

/**
 * A rush must not wait for the server to start processes: on PostgreSQL the instance opens every connection
 * its pool keeps before it takes a request (the embedded database starts no process per connection).
 */
describe('The connection pool at start-up', () => {
  let t: TestApp;
  let pool: Pool;

  beforeAll(async () => {
    t = await createTestApp();
    pool = (t.db.driver as unknown as { master: Pool }).master;
  });
  afterAll(async () => {
    await t.close();
  });

  (onPostgres ? it : it.skip)(
    'holds all its connections open on PostgreSQL, each a live session of the server',
    async () => {
      expect(pool.totalCount).toBe(DB_POOL_SIZE);
      const clients = await Promise.all(Array.from({ length: DB_POOL_SIZE }, () => pool.connect()));
      const pids = clients.map((c) => (c as unknown as { processID: number }).processID);
      clients.forEach((c) => c.release());
      expect(new Set(pids).size).toBe(DB_POOL_SIZE);
      expect(pool.totalCount).toBe(DB_POOL_SIZE); // taking all ten at once opened none

      const observer = new Client({ connectionString: process.env.E2E_DATABASE_URL });
      await observer.connect();
      try {
        const { rows } = await observer.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = ANY($1)',
          [pids],
        );
        expect(rows[0].n).toBe(DB_POOL_SIZE);
      } finally {
        await observer.end();
      }
    },
  );

  (onPostgres ? it.skip : it)('opens connections as they are needed on the embedded database', () => {
    expect(pool.totalCount).toBeLessThan(DB_POOL_SIZE);
  });
});
