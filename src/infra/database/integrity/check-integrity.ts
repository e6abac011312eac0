import { INTEGRITY_CHECKS, type IntegrityCheck, SAMPLE } from './integrity-checks.js';

export interface CheckOutcome {
  check: IntegrityCheck;
  violations: number;
  sample: Record<string, unknown>[];
}

type Query = <R>(sql: string) => Promise<R[]>;

/**
 * Runs every check through `query` (a pool, a transaction); answers each one's count and first rows,
 * of one site's records only when `siteId` is given (a site id is a slug: `^[a-z0-9][a-z0-9_-]*$`).
 */
export async function runIntegrityChecks(query: Query, siteId?: string): Promise<CheckOutcome[]> {
  if (siteId !== undefined && !/^[a-z0-9][a-z0-9_-]{0,63}$/.test(siteId))
    throw new RangeError('not a site id');
  const where = siteId === undefined ? '' : ` WHERE v.site_id = '${siteId}'`;
  const outcomes: CheckOutcome[] = [];
  for (const check of INTEGRITY_CHECKS) {
    const rows = `SELECT * FROM (${check.sql}) v${where}`;
    const [{ n }] = await query<{ n: string }>(`SELECT count(*) AS n FROM (${rows}) c`);
    const sample = Number(n) ? await query<Record<string, unknown>>(`${rows} LIMIT ${SAMPLE}`) : [];
    outcomes.push({ check, violations: Number(n), sample });
  }
  return outcomes;
}

/** The report a person reads: one line per check, the offending rows of the failing ones. */
export function integrityReport(outcomes: CheckOutcome[]): string {
  return outcomes
    .map(({ check, violations, sample }) => {
      const head = `${violations ? 'FAIL' : 'ok  '} ${check.name}: ${check.promise}`;
      if (!violations) return head;
      const rows = sample.map((r) => `       ${JSON.stringify(r)}`).join('\n');
      return `${head}\n     ${violations} violation(s), first ${sample.length}:\n${rows}`;
    })
    .join('\n');
}
