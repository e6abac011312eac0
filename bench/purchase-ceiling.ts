import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * The limit the app is held against: the least SQL that fulfils a paid order correctly
 * (`bench/fulfilment-ceiling*.sql`, kept byte for byte as the team's reference), run by pgbench on the
 * same database, at the same client counts, in the same go.
 */
const SQL_DIR = join(__dirname, '..', '..', 'bench');

/** The ceiling's tables and 1.5M pending orders, then a CHECKPOINT so that their write-back is over before any run. */
export function ceilingSetup(url: string): void {
  const psql = (args: string[]): void =>
    void execFileSync('psql', ['-q', '-v', 'ON_ERROR_STOP=1', ...args, url], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, PGOPTIONS: '-c client_min_messages=warning' },
    });
  psql(['-f', join(SQL_DIR, 'fulfilment-ceiling-setup.sql')]);
  psql(['-c', 'CHECKPOINT']);
}

export interface CeilingRun {
  tps: number;
  latencyMs: number;
  failed: number;
}

export function ceiling(url: string, clients: number, seconds: number): CeilingRun {
  const out = execFileSync(
    'pgbench',
    [
      '-n',
      '-f',
      join(SQL_DIR, 'fulfilment-ceiling.sql'),
      '-c',
      String(clients),
      '-j',
      '2',
      '-T',
      String(seconds),
      url,
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const tps = /tps = ([\d.]+)/.exec(out);
  const latency = /latency average = ([\d.]+) ms/.exec(out);
  const failed = /number of failed transactions: (\d+)/.exec(out);
  if (!tps) throw new Error(`pgbench said:\n${out}`);
  return { tps: Number(tps[1]), latencyMs: Number(latency?.[1] ?? NaN), failed: Number(failed?.[1] ?? 0) };
}

export function requireTools(): void {
  for (const tool of ['pgbench', 'psql']) execFileSync(tool, ['--version'], { stdio: 'ignore' });
}
