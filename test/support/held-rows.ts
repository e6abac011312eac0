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
