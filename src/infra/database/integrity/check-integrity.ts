import { INTEGRITY_CHECKS, type IntegrityCheck, SAMPLE } from './integrity-checks.js';

export interface CheckOutcome {
  check: IntegrityCheck;
  violations: number;
  sample: Record<string, unknown>[];
}

type Query = <R>(sql: string) => Promise<R[]>;

/** Runs every check through `query` (a pool, a transaction); answers each one's count and first rows. */
export async function runIntegrityChecks(query: Query): Promise<CheckOutcome[]> {
  const outcomes: CheckOutcome[] = [];
  for (const check of INTEGRITY_CHECKS) {
    const [{ n }] = await query<{ n: string }>(`SELECT count(*) AS n FROM (${check.sql}) v`);
    const sample = Number(n) ? await query<Record<string, unknown>>(`${check.sql} LIMIT ${SAMPLE}`) : [];
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
