import type { DataSource } from 'typeorm';

/** Per table: row count and an md5 of every row's text, in a stable order. */
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
        // A sum of row hashes: order-free, so no sort, and cheap enough to run after every request.
        `SELECT '${name}' AS name, count(*) || ':' || coalesce(sum(hashtext(t::text)::bigint), 0) AS print FROM "${name}" t`,
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
