import 'reflect-metadata';
import { execFileSync, fork } from 'node:child_process';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Client } from 'pg';
import { IpcChild } from './ipc-child.js';
import { serviceNodeFlags } from '../test/support/node-flags.js';
import { timedLoad } from './timed-load.js';

/**
 * `npm run bench:claims` (issue 12). Two figures:
 * 1. Parallel claims of ONE bulk discount code (every claim spends a point and takes a distinct generated
 *    code) at 10 and 50 connections, by 200 members, against the least SQL that does the same claim
 *    (`bench/claim-ceiling.sql`) run by pgbench on the same database at the same client counts.
 * 2. `GET /rewards/summary` latency for a member with 100,000 ledger rows against one with 10: the
 *    summary reads counters, never the ledger, so the ratio should stay near 1 (aim ≤ 1.2).
 * The app runs in a process of its own; autocannon and pgbench here, one after the other.
 */
const CLAIMS = Number(process.env.BENCH_CLAIMS ?? 3000);
const REPS = Number(process.env.BENCH_REPS ?? 3);
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '10,50').split(',').map(Number);
const CEILING_SECONDS = Number(process.env.BENCH_CEILING_SECONDS ?? 10);
const SUMMARY_SECONDS = Number(process.env.BENCH_SUMMARY_SECONDS ?? 5);
const MEMBERS = 200;
const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';

const out = (line: string): void => void process.stdout.write(`${line}\n`);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

interface World {
  url: string;
  siteId: string;
  adminToken: string;
  userIds: string[];
  tokens: string[];
}

type ClaimsCommand = { cmd: 'init' | 'ledger' | 'cpu' | 'close' } & Record<string, unknown>;

async function http(
  url: string,
  token: string,
  method: string,
  path: string,
  body?: object,
): Promise<{ id: string }> {
  const send = () =>
    fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
  // A kept-alive socket the app closed while pgbench ran (its idle timeout) fails once: send again.
  const res = await send().catch(send);
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as { id: string };
}

/** A fresh bulk code of `count` generated codes (any member may claim it many times, for a point each). */
async function bulkCode(w: World, brandId: string, count: number): Promise<string> {
  const made = await http(w.url, w.adminToken, 'POST', '/discount-codes/bulk-generate', {
    discount_brand_id: brandId,
    title: 'Bench offer',
    code_length: 10,
    count,
    points_required: 1,
    allow_multiple_claims: true,
  });
  return made.id;
}

function claimLoad(w: World, codeId: string, connections: number, amount: number) {
  let next = 0;
  return timedLoad({
    url: w.url,
    connections,
    amount,
    timeout: 30,
    requests: [
      {
        method: 'POST',
        path: `/discount-codes/${codeId}/claim`,
        setupRequest: (req) => {
          const i = next++;
          return {
            ...req,
            headers: {
              ...req.headers,
              authorization: `Bearer ${w.tokens[i % w.tokens.length]}`,
              'x-forwarded-for': `10.9.${(i >> 8) & 255}.${i & 255}`,
            },
          };
        },
      },
    ],
  });
}

function pgbench(
  url: string,
  clients: number,
  codeId: string,
  siteId: string,
): { tps: number; failed: number } {
  const text = execFileSync(
    'pgbench',
    [
      '-n',
      '-f',
      join(__dirname, '..', '..', 'bench', 'claim-ceiling.sql'),
      '-c',
      String(clients),
      '-j',
      '2',
      '-T',
      String(CEILING_SECONDS),
      '-D',
      `code=${codeId}`,
      '-D',
      `site=${siteId}`,
      url,
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const tps = /tps = ([\d.]+)/.exec(text);
  if (!tps) throw new Error(`pgbench said:\n${text}`);
  return { tps: Number(tps[1]), failed: Number(/failed transactions: (\d+)/.exec(text)?.[1] ?? 0) };
}

async function main(): Promise<void> {
  const name = `bench_claims_${Date.now()}`;
  const admin = new Client({ connectionString: SERVER });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(SERVER);
  url.pathname = `/${name}`;
  const child = fork(join(__dirname, 'claims-app.js'), [], {
    execArgv: serviceNodeFlags(),
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const app = new IpcChild<ClaimsCommand>(child, 'claims app');
  const db = new Client({ connectionString: url.toString() });
  const summary: Record<string, unknown> = {};
  try {
    const w = await app.ask<World>({ cmd: 'init', databaseUrl: url.toString(), members: MEMBERS });
    await db.connect();
    // Points for every member, as one ledger row each, and the ceiling's table of members.
    await db.query(
      `INSERT INTO point_transactions (site_id, user_id, reason, transaction_type, created_by, amount, metadata)
       SELECT $1, id, 'Bench points', 'adjustment', NULL, 1000000, '{}' FROM unnest($2::uuid[]) AS id`,
      [w.siteId, w.userIds],
    );
    await db.query(
      `INSERT INTO rewards_balances (user_id, site_id, current_points, lifetime_earned)
       SELECT id, $1, 1000000, 1000000 FROM unnest($2::uuid[]) AS id
       ON CONFLICT (user_id) DO UPDATE SET current_points = 1000000, lifetime_earned = 1000000`,
      [w.siteId, w.userIds],
    );
    await db.query(
      `CREATE TABLE bench_claim_members AS SELECT ordinality::int AS n, id
                      FROM unnest($1::uuid[]) WITH ORDINALITY AS id`,
      [w.userIds],
    );
    const brand = await http(w.url, w.adminToken, 'POST', '/admin/discount-brands', { name: 'Bench brand' });
    const runs: Record<number, Array<{ rate: number; ceiling: number; p50: number; p99: number }>> = {};
    for (let rep = 1; rep <= REPS; rep++)
      for (const c of CONNECTIONS) {
        const codeId = await bulkCode(w, brand.id, CLAIMS);
        const r = await claimLoad(w, codeId, c, CLAIMS);
        const [check] = (
          await db.query(
            `SELECT (SELECT current_uses FROM discount_codes WHERE id = $1) AS uses,
                    (SELECT count(DISTINCT code)::int FROM discount_claims WHERE discount_code_id = $1) AS codes`,
            [codeId],
          )
        ).rows;
        const problems: string[] = [];
        if (r['2xx'] !== CLAIMS || r.non2xx || r.errors)
          problems.push(`${r['2xx']} 2xx, ${r.non2xx} other, ${r.errors} errors`);
        if (check.uses !== CLAIMS || check.codes !== CLAIMS)
          problems.push(`uses ${check.uses}, distinct codes ${check.codes}`);
        const ceilingCode = await bulkCode(w, brand.id, 10000);
        await db.query(
          `INSERT INTO discount_unique_codes (site_id, discount_code_id, code)
           SELECT $2, $1, 'CEIL' || $3 || '-' || g FROM generate_series(1, 60000) g`,
          [ceilingCode, w.siteId, `${rep}${c}`],
        );
        const limit = pgbench(url.toString(), c, ceilingCode, w.siteId);
        const rate = r['2xx'] / r.answeredSeconds;
        (runs[c] ??= []).push({ rate, ceiling: limit.tps, p50: r.latency.p50, p99: r.latency.p99 });
        out(
          `rep ${rep} c=${String(c).padStart(2)}: app ${rate.toFixed(0).padStart(5)} claims/s p50 ${r.latency.p50} ms ` +
            `p99 ${r.latency.p99} ms   ceiling ${limit.tps.toFixed(0).padStart(5)}/s   ratio ${(rate / limit.tps).toFixed(2)}` +
            (problems.length || limit.failed
              ? `   INCORRECT: ${problems.join('; ')} ${limit.failed} failed`
              : '   checks ok'),
        );
        if (problems.length) process.exitCode = 1;
      }
    out(
      `\nClaims of one bulk code, medians of ${REPS} (${CLAIMS} claims per run, ceiling ${CEILING_SECONDS} s)`,
    );
    for (const c of CONNECTIONS) {
      const rs = runs[c];
      const m = { rate: median(rs.map((r) => r.rate)), ceiling: median(rs.map((r) => r.ceiling)) };
      out(
        `  c=${c}: ${m.rate.toFixed(0)} claims/s, ceiling ${m.ceiling.toFixed(0)}/s, ratio ${(m.rate / m.ceiling).toFixed(2)}, ` +
          `p99 ${median(rs.map((r) => r.p99))} ms`,
      );
      summary[`claims_c${c}`] = {
        rate: Math.round(m.rate),
        ceiling: Math.round(m.ceiling),
        ratio: Number((m.rate / m.ceiling).toFixed(2)),
      };
    }

    // The summary: a member with 100,000 ledger rows against one with 10.
    const [long, short] = [0, 1].map((i) => ({ id: w.userIds[i], token: w.tokens[i] }));
    await app.ask({ cmd: 'ledger', userId: long.id, siteId: w.siteId, rows: 100_000 });
    await app.ask({ cmd: 'ledger', userId: short.id, siteId: w.siteId, rows: 10 });
    const latency = async (token: string) => {
      const r = await autocannon({
        url: `${w.url}/rewards/summary`,
        connections: 10,
        duration: SUMMARY_SECONDS,
        headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': '10.8.0.1' },
      });
      if (r.non2xx) throw new Error(`summary answered ${r.non2xx} non-2xx`);
      return { mean: r.latency.average, p99: r.latency.p99, rps: r.requests.average };
    };
    await latency(short.token); // warm up
    const shortRun = await latency(short.token);
    const longRun = await latency(long.token);
    const ratio = longRun.mean / shortRun.mean;
    out(
      `\nGET /rewards/summary at 10 connections: 10 ledger rows ${shortRun.mean.toFixed(2)} ms mean (p99 ${shortRun.p99}), ` +
        `100,000 rows ${longRun.mean.toFixed(2)} ms mean (p99 ${longRun.p99}): ratio ${ratio.toFixed(2)}`,
    );
    summary.summary = { short_ms: shortRun.mean, long_ms: longRun.mean, ratio: Number(ratio.toFixed(2)) };
    if (ratio > 1.2) process.exitCode = 1;
  } finally {
    await db.end().catch(() => undefined);
    await app.ask({ cmd: 'close' }).catch(() => undefined);
    if (!process.env.BENCH_KEEP_DB) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
  out(JSON.stringify({ bench: 'claims', ...summary }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
