import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { startFakeGateways, type FakeGateways } from '../test/support/fake-gateways.js';
import { SmtpSink } from '../test/support/smtp-sink.js';
import { AppChild } from './purchase-app-child.js';
import { ceiling, ceilingSetup, requireTools } from './purchase-ceiling.js';
import { mailPhase, type MailFigures } from './purchase-mail.js';
import { processCpuMs } from './process-cpu.js';
import type { InitAnswer, LoadResult } from './purchase-protocol.js';
import { forgetRun, loadInChild, median, paidOrders, verify } from './purchase-world.js';

/**
 * `npm run bench:purchase`: the confirmation of paid raffle orders (endpoint 3 with
 * `{confirmation_only: true, order_id}`), every request confirming a different paid order of ONE raffle,
 * so each runs a whole fulfilment, against the least SQL that does the same work
 * (`bench/fulfilment-ceiling.sql` by pgbench) on the same PostgreSQL database at the same client counts.
 * Three processes: this one (the loopback fake gateway and the orchestration), the app (its CPU measured
 * alone; a web instance, `JOBS=off`: the jobs it queues are the mail phase's to drain), and autocannon.
 * Then the embedded database at 10 connections, and the mail phase (jobs on, a loopback SMTP server).
 */
const ORDERS = Number(process.env.BENCH_ORDERS ?? 4000);
/**
 * Confirmations run once, uncounted, before an app's measured runs: V8 optimises the path as it runs, and
 * without this the first repetition was always the slowest (a cold path, not the design, measured). 500 was
 * not enough: after it the first run at 10 connections still took 4.0-4.7 ms of the app's CPU a confirmation
 * where later runs took 2.4-2.8; after 3,000 the first run took 2.6 like the rest.
 */
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3000);
const REPS = Number(process.env.BENCH_REPS ?? 3);
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '10,50').split(',').map(Number);
const CEILING_SECONDS = Number(process.env.BENCH_CEILING_SECONDS ?? 10);
const BURST = Number(process.env.BENCH_BURST ?? 500);
const PHASES = new Set((process.env.BENCH_PHASES ?? 'postgres,embedded,mail').split(','));
const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
const PROFILE = process.env.BENCH_PROFILE; // a directory: CPU profiles of the app during each load run
const TIMINGS = process.env.BENCH_TIMINGS; // a directory: every answer's time and latency, a file per load run

interface Run {
  rate: number;
  ceiling?: number;
  p50: number;
  p99: number;
  errors: number;
  cpuMs: number;
  /** Of which in the kernel (system time). */
  sysMs: number;
  /** The share of the run the app's event loop was busy (1: the one thread that runs requests is the limit). */
  loopBusy: number;
  /** PostgreSQL's CPU per confirmation (every backend of the cluster, Linux only). */
  dbMs: number;
  /** PostgreSQL's CPU per transaction of the ceiling run. */
  ceilingDbMs?: number;
  /** The rest of the machine's work per confirmation: the fake gateway (this process) and autocannon. */
  harnessMs: number;
  /** Of which autocannon's (the rest is the fake gateway's and this process's). */
  loadMs: number;
}

const out = (line: string): void => void process.stdout.write(`${line}\n`);
/** A run's correctness checks as its line ends. */
const verdict = (problems: string[]): string =>
  problems.length ? `   INCORRECT: ${problems.join('; ')}` : '   checks ok';
const fixed = (n: number, d = 0): string => (Number.isFinite(n) ? n.toFixed(d) : '-');

async function startApp(
  fakes: FakeGateways,
  databaseUrl: string | undefined,
  extra: { jobs: boolean; mailTransport: string },
): Promise<{ app: AppChild; init: InitAnswer; raffleId: string; itemId: string }> {
  const app = AppChild.start();
  const init = await app.ask<InitAnswer>('init', { databaseUrl, ...fakes.config, ...extra });
  const { raffleId, itemId } = await app.ask<{ raffleId: string; itemId: string }>('setup');
  return { app, init, raffleId, itemId };
}

/** One load run: fresh paid orders, autocannon at `connections`, the app's CPU, then the checks. */
async function appRun(
  label: string,
  fakes: FakeGateways,
  s: { app: AppChild; init: InitAnswer; raffleId: string; itemId: string },
  connections: number,
  ipBase: number,
  count = ORDERS,
): Promise<{ run: Run; load: LoadResult; problems: string[] }> {
  const orders = await paidOrders(s.app, fakes, s.itemId, count);
  const ids = orders.map((o) => o.paymentId);
  if (PROFILE) await s.app.ask('profile-start');
  const cpuBefore = await s.app.cpu();
  const dbBefore = processCpuMs('postgres');
  const ownBefore = process.cpuUsage();
  const load = await loadInChild({ url: s.init.url, ids, connections, ipBase, timingsDir: TIMINGS });
  const own = process.cpuUsage(ownBefore);
  const dbMs = processCpuMs('postgres') - dbBefore;
  const cpuAfter = await s.app.cpu();
  if (PROFILE)
    await s.app.ask('profile-stop', { file: `${PROFILE}/${label}-c${connections}-${Date.now()}.cpuprofile` });
  const problems = await verify(s.init.databaseUrl, s.raffleId, ids);
  forgetRun(fakes, orders);
  if (load.ok !== ids.length || load.errors || load.non2xx)
    problems.push(`${load.ok} 2xx, ${load.non2xx} other, ${load.errors} errors of ${ids.length}`);
  const rate = load.ok / load.seconds;
  return {
    run: {
      rate,
      p50: load.p50,
      p99: load.p99,
      errors: load.errors + load.non2xx,
      cpuMs: (cpuAfter.total - cpuBefore.total) / Math.max(load.ok, 1),
      sysMs: (cpuAfter.system - cpuBefore.system) / Math.max(load.ok, 1),
      loopBusy: performance.eventLoopUtilization(cpuAfter.elu, cpuBefore.elu).utilization,
      dbMs: dbMs / Math.max(load.ok, 1),
      harnessMs: ((own.user + own.system) / 1000 + load.cpuMs) / Math.max(load.ok, 1),
      loadMs: load.cpuMs / Math.max(load.ok, 1),
    },
    load,
    problems,
  };
}

/** `WARMUP` confirmations at 10 connections, checked but not counted; answers the client addresses it used. */
async function warmUp(
  fakes: FakeGateways,
  s: { app: AppChild; init: InitAnswer; raffleId: string; itemId: string },
  ipBase: number,
): Promise<number> {
  if (WARMUP <= 0) return 0;
  const { run, load, problems } = await appRun('warmup', fakes, s, 10, ipBase, WARMUP);
  out(`warm-up: ${WARMUP} confirmations at c=10 (not counted): ${fixed(run.rate)}/s` + verdict(problems));
  if (problems.length) process.exitCode = 1;
  return load.setupCalls;
}

async function bench(url: string): Promise<void> {
  const fakes = await startFakeGateways({ timeoutMs: 30_000, lean: true });
  const smtp = await new SmtpSink().start();
  const summary: Record<string, unknown> = {};
  let ipBase = 0;
  try {
    if (PHASES.has('postgres')) {
      const s = await startApp(fakes, url, { jobs: false, mailTransport: 'log' });
      try {
        const [traced] = await paidOrders(s.app, fakes, s.itemId, 1);
        const trace = await s.app.ask<string[]>('trace', { paymentId: traced.paymentId });
        out(`one confirmation sends ${trace.length} SQL statements`);
        if (process.env.BENCH_TRACE) out(trace.map((q) => `  ${q.slice(0, 300)}`).join('\n'));
        // The ceiling's 1.5M pending orders before the warm-up, and written out (CHECKPOINT): whatever their
        // write-back costs falls on the warm-up, not on a measured run.
        ceilingSetup(url);
        ipBase += await warmUp(fakes, s, ipBase);
        const runs: Record<number, Run[]> = {};
        for (let rep = 1; rep <= REPS; rep++) {
          for (const c of CONNECTIONS) {
            const { run, load, problems } = await appRun('postgres', fakes, s, c, ipBase);
            ipBase += load.setupCalls;
            const dbBefore = processCpuMs('postgres');
            const limit = ceiling(url, c, CEILING_SECONDS);
            if (limit.failed) problems.push(`pgbench: ${limit.failed} failed transactions`);
            run.ceiling = limit.tps;
            run.ceilingDbMs =
              (processCpuMs('postgres') - dbBefore) / Math.max(limit.tps * CEILING_SECONDS, 1);
            (runs[c] ??= []).push(run);
            out(
              `rep ${rep} c=${String(c).padStart(2)}: app ${fixed(run.rate).padStart(5)}/s p50 ${run.p50} ms ` +
                `p99 ${run.p99} ms errors ${run.errors} cpu ${fixed(run.cpuMs, 2)} ms/conf (sys ${fixed(run.sysMs, 2)}, ` +
                `loop ${fixed(run.loopBusy * 100)}% busy) ` +
                `db ${fixed(run.dbMs, 2)} harness ${fixed(run.harnessMs, 2)} (load ${fixed(run.loadMs, 2)}) ms/conf   ceiling ${fixed(limit.tps).padStart(5)}/s ` +
                `(avg ${fixed(limit.latencyMs, 1)} ms, db ${fixed(run.ceilingDbMs, 2)} ms/tx)   ` +
                `ratio ${fixed(run.rate / limit.tps, 2)}` +
                verdict(problems),
            );
            if (problems.length) process.exitCode = 1;
          }
        }
        out(`\nPostgreSQL, medians of ${REPS} (orders per run ${ORDERS}, ceiling ${CEILING_SECONDS} s)`);
        for (const c of CONNECTIONS) {
          const rs = runs[c];
          const fig = {
            rate: Math.round(median(rs.map((r) => r.rate))),
            ceiling: Math.round(median(rs.map((r) => r.ceiling ?? NaN))),
            ratio: Number(median(rs.map((r) => r.rate / (r.ceiling ?? NaN))).toFixed(2)),
            p50_ms: median(rs.map((r) => r.p50)),
            p99_ms: median(rs.map((r) => r.p99)),
            errors: rs.reduce((n, r) => n + r.errors, 0),
            cpu_ms: Number(median(rs.map((r) => r.cpuMs)).toFixed(2)),
            cpu_sys_ms: Number(median(rs.map((r) => r.sysMs)).toFixed(2)),
            loop_busy: Number(median(rs.map((r) => r.loopBusy)).toFixed(2)),
            db_cpu_ms: Number(median(rs.map((r) => r.dbMs)).toFixed(2)),
            ceiling_db_cpu_ms: Number(median(rs.map((r) => r.ceilingDbMs ?? NaN)).toFixed(2)),
            harness_cpu_ms: Number(median(rs.map((r) => r.harnessMs)).toFixed(2)),
          };
          summary[`c${c}`] = fig;
          out(
            `c=${String(c).padStart(2)}  app ${String(fig.rate).padStart(5)} conf/s  p50 ${fig.p50_ms} ms  ` +
              `p99 ${fig.p99_ms} ms  errors ${fig.errors}  cpu ${fig.cpu_ms} ms/conf (sys ${fig.cpu_sys_ms}, loop ` +
              `${Math.round(fig.loop_busy * 100)}% busy)  db ` +
              `${fig.db_cpu_ms} harness ${fig.harness_cpu_ms} ms/conf   ceiling ${String(fig.ceiling).padStart(5)}/s (db ${fig.ceiling_db_cpu_ms} ` +
              `ms/tx)   app/ceiling ${fig.ratio}`,
          );
        }
      } finally {
        await s.app.close();
      }
    }

    if (PHASES.has('embedded')) {
      const s = await startApp(fakes, undefined, { jobs: false, mailTransport: 'log' });
      try {
        ipBase += await warmUp(fakes, s, ipBase);
        const { run, load, problems } = await appRun('embedded', fakes, s, 10, ipBase);
        ipBase += load.setupCalls;
        summary.embedded_c10 = {
          rate: Math.round(run.rate),
          p50_ms: run.p50,
          p99_ms: run.p99,
          errors: run.errors,
          cpu_ms: Number(run.cpuMs.toFixed(2)),
        };
        out(
          `\nembedded (PGlite) c=10: app ${fixed(run.rate)}/s p50 ${run.p50} ms p99 ${run.p99} ms ` +
            `errors ${run.errors} cpu ${fixed(run.cpuMs, 2)} ms/conf (no ceiling: what \`npm start\` gives)` +
            verdict(problems),
        );
        if (problems.length) process.exitCode = 1;
      } finally {
        await s.app.close();
      }
    }

    if (PHASES.has('mail')) {
      await dropQueuedJobs(url);
      const s = await startApp(fakes, url, { jobs: true, mailTransport: `smtp://127.0.0.1:${smtp.port}` });
      try {
        const mail: MailFigures = await mailPhase(s.app, s.init.url, url, fakes, smtp, s.itemId, BURST);
        summary.mail = mail;
        out(
          `\nmail (PostgreSQL, jobs on, loopback SMTP): idle purchase → e-mail p50 ${mail.idle_p50_ms} ms, ` +
            `p95 ${mail.idle_p95_ms} ms (50 purchases); burst of ${mail.burst} confirmed in ` +
            `${fixed(mail.burst_seconds, 1)} s, last purchase e-mail ${mail.burst_last_mail_after_s} s after it; ` +
            `jobs/s ${Object.entries(mail.jobs_per_s)
              .map(([k, v]) => `${k} ${v}`)
              .join(', ')}`,
        );
      } finally {
        await s.app.close();
      }
    }
  } finally {
    await smtp.stop();
    await fakes.close();
  }
  out(JSON.stringify(summary));
}

/**
 * The throughput runs' instance queued a notify job per confirmation and never ran them (JOBS=off): the
 * mail phase measures a sale of its own, not that backlog.
 */
async function dropQueuedJobs(url: string): Promise<void> {
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    await db.query(`DELETE FROM pgboss.job WHERE state < 'active' AND name NOT LIKE '\\_\\_pgboss%'`);
  } catch (error) {
    // No queue yet (the mail phase alone): nothing to drop.
    if ((error as { code?: string }).code !== '42P01') throw error;
  } finally {
    await db.end();
  }
}

async function main(): Promise<void> {
  requireTools();
  const name = `bench_purchase_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const admin = new Client({ connectionString: SERVER });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  try {
    const url = new URL(SERVER);
    url.pathname = `/${name}`;
    await bench(url.toString());
  } finally {
    if (!process.env.BENCH_KEEP_DB) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    else process.stdout.write(`kept database ${name}\n`);
    await admin.end();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
