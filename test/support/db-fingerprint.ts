import type { DataSource } from 'typeorm';

/**
 * Per table: its row count and the newest transaction that wrote one of its rows (`xmin`). Every insert and
 * update writes a row version stamped with its transaction's id, newer than any before it, and a delete
 * lowers the count, so a request that writes anything a later read can see moves one of the two; one that
 * writes a row back as it was moves it too (stricter than comparing contents). A rolled-back write is seen
 * by nobody and moves neither. No row is turned into text: the e2e run shares one database, and hashing
 * every row after each request cost the fuzzing suite over a minute once the other suites had filled it.
 */
export type Fingerprint = Record<string, string>;

let query: string | undefined;

async function fingerprintQuery(db: DataSource): Promise<string> {
  const tables = await db.query<Array<{ name: string }>>(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const parts = tables
    .map((t) => t.name)
    .map(
      (name) =>
        `SELECT '${name}' AS name, count(*) || ':' || coalesce(max(t.xmin::text::bigint), 0) AS print FROM "${name}" t`,
    );
  // The job queue: a refused request must not enqueue work (an e-mail, a provider call). pg-boss's own
  // clock sends the scheduled jobs (renewals, reminders…) every minute whatever the requests do.
  parts.push(
    `SELECT 'pgboss.job' AS name, count(*)::text AS print FROM pgboss.job
      WHERE name NOT IN (SELECT name FROM pgboss.schedule) AND name NOT LIKE '\\_\\_pgboss%'`,
  );
  return parts.join(' UNION ALL ');
}

export async function dbFingerprint(db: DataSource): Promise<Fingerprint> {
  query ??= await fingerprintQuery(db);
  const rows = await db.query<Array<{ name: string; print: string }>>(query);
  return Object.fromEntries(rows.map((r) => [r.name, r.print]));
}

/** The tables whose fingerprint differs, but for those a refusal may change by design. */
export function diffFingerprints(
  before: Fingerprint,
  after: Fingerprint,
  allowed: readonly string[] = [],
): string[] {
  return Object.keys({ ...before, ...after }).filter(
    (name) => before[name] !== after[name] && !allowed.includes(name),
  );
}
