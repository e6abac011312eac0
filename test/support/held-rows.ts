import type { Client } from 'pg';

/** The sessions of this database, `holder`'s own aside, that wait on a lock, as PostgreSQL sees them. */
export async function sessionsWaitingOnLocks(holder: Client): Promise<number> {
  const { rows } = await holder.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'`,
  );
  return rows[0].n;
}

/**
 * Waits until some session waits on a lock (at most `ms`): the request under test has reached the row
 * `holder` holds in its open transaction. Returns either way; the test's assertions tell what happened.
 */
export function untilSomeoneWaits(holder: Client, ms = 10_000): Promise<void> {
  return untilWaiting(holder, 1, ms);
}

/** `untilSomeoneWaits` for `count` sessions: as many requests under test have reached held rows. */
export async function untilWaiting(holder: Client, count: number, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if ((await sessionsWaitingOnLocks(holder)) >= count) return;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Runs `request` while another session holds the rows `sql` locks (`BEGIN; … FOR UPDATE`), waits until the
 * request waits on them, runs `during` (a change committed meanwhile), then lets the rows go: the request
 * then goes on past a decision it made before the change. PostgreSQL only (the embedded database
 * serialises transactions).
 */
export async function whileHeld<T>(
  sql: string,
  params: unknown[],
  request: () => Promise<T>,
  during: () => Promise<void>,
): Promise<T> {
  const { Client: PgClient } = await import('pg');
  const holder = new PgClient({ connectionString: process.env.E2E_DATABASE_URL });
  await holder.connect();
  try {
    await holder.query('BEGIN');
    await holder.query(sql, params);
    const pending = request();
    await untilSomeoneWaits(holder);
    await during();
    await holder.query('COMMIT');
    return await pending;
  } finally {
    await holder.end();
  }
}

/**
 * Holds the rows `sql` locks from a session of its own (`BEGIN; … FOR UPDATE`) until `release`: for tests that
 * line several requests up at the rows (counting them with `untilWaiting(holder, n)`) before letting them go.
 * PostgreSQL only.
 */
export async function holdRows(
  sql: string,
  params: unknown[],
): Promise<{ holder: Client; release: () => Promise<void> }> {
  const { Client: PgClient } = await import('pg');
  const holder = new PgClient({ connectionString: process.env.E2E_DATABASE_URL });
  await holder.connect();
  await holder.query('BEGIN');
  await holder.query(sql, params);
  return {
    holder,
    release: async () => {
      try {
        await holder.query('COMMIT');
      } finally {
        await holder.end();
      }
    },
  };
}
