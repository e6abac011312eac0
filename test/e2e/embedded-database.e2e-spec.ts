import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'pg';

/**
 * The embedded server multiplexes every connection onto one PGlite session (STACK.md): statements from
 * different connections must never mix. On PostgreSQL this holds by construction.
 */
describe('the database under concurrent statements', () => {
  it('answers each statement queued behind a transaction with its own parameters', async () => {
    const url = process.env.E2E_DATABASE_URL;
    if (!url) throw new Error('E2E_DATABASE_URL is not set');
    const pool = new Pool({ connectionString: url, max: 10 });
    try {
      // Every connection open first, so each statement below arrives on its own connection at once.
      await Promise.all(Array.from({ length: 10 }, () => pool.query('SELECT 1')));
      const holder = await pool.connect();
      await holder.query('BEGIN');
      const shapes = [
        (i: number) => pool.query<{ v: number }>('SELECT $1::int AS v', [i]),
        (i: number) => pool.query<{ v: number }>('SELECT $1::int + $2::int AS v', [i, 0]),
        (i: number) => pool.query<{ v: number }>('SELECT $1::int - $2::int + $3::int AS v', [i, 1, 1]),
      ];
      const pending = Promise.allSettled(
        Array.from({ length: 9 }, (_, i) => shapes[i % 3](i).then((r) => r.rows[0].v)),
      );
      // They queue behind the open transaction (on PGlite) until it ends.
      await sleep(50);
      await holder.query('SELECT $1::int AS v', [42]);
      await holder.query('COMMIT');
      holder.release();
      const answers = await pending;
      const wrong = answers.flatMap((a, i) =>
        a.status === 'fulfilled' && a.value === i
          ? []
          : [a.status === 'rejected' ? String(a.reason) : a.value],
      );
      expect(wrong).toEqual([]);
    } finally {
      await pool.end();
    }
  });
});
