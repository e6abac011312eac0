import 'reflect-metadata';
import { fork } from 'node:child_process';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Client } from 'pg';
import { integrityReport, runIntegrityChecks } from '#app/infra/database/integrity/check-integrity.js';
import { startFakeGateways } from '../test/support/fake-gateways.js';
import { serviceNodeFlags } from '../test/support/node-flags.js';
import { IpcChild } from './ipc-child.js';
import { classLines, type MixedWorld, mixedProblems, runMixedLoad } from '../test/support/mixed-workload.js';

/**
 * `npm run bench:mixed` (issue 15): the mixed workload (test/support/mixed-workload.ts: browse, quote, buy and
 * confirm, claim, read the summary) under autocannon at BENCH_CONNECTIONS (200) for BENCH_DURATION
 * seconds (60) on PostgreSQL, beside a bare NestJS endpoint (bench/mixed-bare.ts) at the same connections
 * for the same time, in the same run. The app and the bare endpoint each run in a process of their own;
 * autocannon and the fake gateway (which the app asks about every order) here. Afterwards the
 * money-integrity checks (`npm run check:integrity`) on the run's database. Exit 1 on any error,
 * unexpected answer or failed check.
 */
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 200);
const DURATION = Number(process.env.BENCH_DURATION ?? 60);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 5);
const SETTLE = Number(process.env.BENCH_SETTLE ?? 10);
const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 200);
const RAFFLES = Number(process.env.BENCH_RAFFLES ?? 20);
const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';

type Command = { cmd: 'init' | 'cpu' | 'close' } & Record<string, unknown>;
const out = (line: string): void => void process.stdout.write(`${line}\n`);
const cpuMs = (a: NodeJS.CpuUsage, b: NodeJS.CpuUsage): number =>
  (b.user - a.user + b.system - a.system) / 1000;

async function main(): Promise<void> {
  const name = `bench_mixed_${Date.now()}`;
  const admin = new Client({ connectionString: SERVER });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(SERVER);
  url.pathname = `/${name}`;
  const fakes = await startFakeGateways({ timeoutMs: 10_000 });
  const app = new IpcChild<Command>(
    fork(join(__dirname, 'mixed-app.js'), [], {
      execArgv: serviceNodeFlags(),
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    }),
    'mixed app',
  );
  const bare = new IpcChild<Command>(
    fork(join(__dirname, 'mixed-bare.js'), [], {
      execArgv: serviceNodeFlags(),
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    }),
    'bare app',
  );
  const db = new Client({ connectionString: url.toString() });
  try {
    const world = await app.ask<MixedWorld>({
      cmd: 'init',
      databaseUrl: url.toString(),
      gateways: fakes.config,
      members: MEMBERS,
      raffles: RAFFLES,
    });
    const bareUrl = await bare.ask<string>({ cmd: 'init' });
    const complete = (checkoutId: string) => void fakes.gatewayOne.complete(checkoutId);
    out(
      `Mixed load: ${CONNECTIONS} connections, ${DURATION} s, ${MEMBERS} members, ${RAFFLES} raffles, ` +
        `PostgreSQL ${url.host}`,
    );
    if (WARMUP) {
      await runMixedLoad(world, { connections: CONNECTIONS, duration: WARMUP, complete });
      // What the warm-up left in flight is still being served: let it drain before measuring.
      await new Promise((resolve) => setTimeout(resolve, SETTLE * 1000));
    }

    const cpu0 = await app.ask<NodeJS.CpuUsage>({ cmd: 'cpu' });
    const r = await runMixedLoad(world, { connections: CONNECTIONS, duration: DURATION, complete });
    const cpu1 = await app.ask<NodeJS.CpuUsage>({ cmd: 'cpu' });

    const bcpu0 = await bare.ask<NodeJS.CpuUsage>({ cmd: 'cpu' });
    const b = await autocannon({
      url: `${bareUrl}/ping`,
      connections: CONNECTIONS,
      duration: DURATION,
      timeout: 30,
    });
    const bcpu1 = await bare.ask<NodeJS.CpuUsage>({ cmd: 'cpu' });
    const bareRps = b.requests.total / b.duration;

    out(
      `\napp   ${r.rps.toFixed(0).padStart(6)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  ` +
        `${r.total} requests, ${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx, ` +
        `${r.confirmed} orders confirmed, app CPU ${(cpuMs(cpu0, cpu1) / r.total).toFixed(2)} ms/request`,
    );
    for (const line of classLines(r)) out(line);
    out(
      `bare  ${bareRps.toFixed(0).padStart(6)} req/s  p50 ${b.latency.p50} ms  p99 ${b.latency.p99} ms  ` +
        `${b.errors} errors, ${b.non2xx} non-2xx, CPU ${(cpuMs(bcpu0, bcpu1) / b.requests.total).toFixed(3)} ms/request`,
    );
    out(`ratio app/bare ${(r.rps / bareRps).toFixed(3)}`);

    const problems = mixedProblems(r);
    if (b.errors || b.non2xx) problems.push(`bare: ${b.errors} errors, ${b.non2xx} non-2xx`);
    await db.connect();
    const outcomes = await runIntegrityChecks(async <R>(sql: string) => (await db.query(sql)).rows as R[]);
    const broken = outcomes.filter((o) => o.violations > 0);
    out(`\nintegrity checks:\n${integrityReport(outcomes)}`);
    if (broken.length) problems.push(`${broken.length} integrity check(s) failed`);
    out(problems.length ? `\nINCORRECT: ${problems.join('; ')}` : '\nno errors, every check holds');
    process.exitCode = problems.length ? 1 : 0;
    out(
      JSON.stringify({
        bench: 'mixed',
        connections: CONNECTIONS,
        duration: DURATION,
        rps: Math.round(r.rps),
        p50_ms: r.p50,
        p99_ms: r.p99,
        errors: r.errors + r.timeouts,
        non2xx: r.non2xx,
        classes: r.classes,
        bare_rps: Math.round(bareRps),
        bare_p50_ms: b.latency.p50,
        bare_p99_ms: b.latency.p99,
        ratio: Number((r.rps / bareRps).toFixed(3)),
        integrity: broken.length ? 'failed' : 'ok',
      }),
    );
  } finally {
    await db.end().catch(() => undefined);
    await app.ask({ cmd: 'close' }).catch(() => undefined);
    await bare.ask({ cmd: 'close' }).catch(() => undefined);
    await fakes.close();
    if (!process.env.BENCH_KEEP_DB) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
