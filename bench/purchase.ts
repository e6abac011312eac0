import 'reflect-metadata';
import { execFileSync, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { getDataSourceToken } from '@nestjs/typeorm';
import autocannon from 'autocannon';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { createApplication, type RunningApp } from '#app/bootstrap.js';
import { NO_REQUEST } from '#app/common/http/request-meta.js';
import { OrdersService } from '#app/modules/payments/orders.service.js';
import { RaffleAdminService } from '#app/modules/raffles/raffle-admin.service.js';
import { SitesService } from '#app/modules/sites/sites.service.js';
import { AccountsService } from '#app/modules/users/accounts.service.js';
import { testConfig } from '../test/support/app.js';
import { listenOnLoopback, startFakeGateways, type FakeGateways } from '../test/support/fake-gateways.js';

/**
 * `npm run bench:purchase`: endpoint 3's confirmation (`POST /gatewayone/create-order` with
 * `{confirmation_only: true, order_id}`) under load on PostgreSQL, every request confirming a different
 * order of ONE raffle that the fake gateway reports paid, so each runs a whole fulfilment. autocannon runs
 * in a child process; the app (and the loopback fake gateway it asks) in this one. After each run every
 * confirmed order must have exactly one entry and the raffle's counter must equal the tickets sold.
 * The ceiling is the same transaction's SQL run by pgbench (bench/purchase-transaction.sql) on a second
 * raffle of the same database, interleaved with the app runs; ratios compare runs of the same repetition.
 */
const ORDERS = Number(process.env.BENCH_ORDERS ?? 4000);
const REPS = Number(process.env.BENCH_REPS ?? 3);
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '10,50').split(',').map(Number);
const CEILING_SECONDS = Number(process.env.BENCH_CEILING_SECONDS ?? 10);
const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
const SQL_FILE = join(__dirname, '..', '..', 'bench', 'purchase-transaction.sql');

interface LoadOrder {
  url: string;
  ids: string[];
  connections: number;
  ipBase: number;
}

interface LoadResult {
  ok: number;
  non2xx: number;
  errors: number;
  seconds: number;
  p50: number;
  p99: number;
  setupCalls: number;
}

interface Sample {
  rate: number;
  p99: number;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const ipOf = (n: number): string => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

/** The child: autocannon, each request confirming the next order id (and coming from its own client IP). */
function runLoad(order: LoadOrder): Promise<LoadResult> {
  let next = 0;
  return autocannon({
    url: order.url,
    connections: order.connections,
    amount: order.ids.length,
    timeout: 30,
    requests: [
      {
        method: 'POST',
        path: '/gatewayone/create-order',
        headers: { 'content-type': 'application/json' },
        setupRequest: (req) => {
          const i = next++;
          return {
            ...req,
            // Distinct buyers behind the trusted loopback proxy: the per-IP order limit applies per buyer.
            headers: { ...req.headers, 'x-forwarded-for': ipOf(order.ipBase + i) },
            body: JSON.stringify({ confirmation_only: true, order_id: order.ids[i % order.ids.length] }),
          };
        },
      },
    ],
  }).then((r) => ({
    ok: r['2xx'],
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    seconds: r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    setupCalls: next,
  }));
}

function loadInChild(order: LoadOrder): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(__filename, ['load'], { stdio: 'inherit' });
    child.once('message', (m) => resolve(m as LoadResult));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code) reject(new Error(`load child exited with ${code}`));
    });
    child.send(order);
  });
}

/** Runs `work` over `items` with `width` in flight. */
async function inParallel<T, R>(items: T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]);
    }
  };
  await Promise.all(Array.from({ length: width }, lane));
  return out;
}

class World {
  readonly db: DataSource;
  readonly url: string;
  siteId = `bench-${randomBytes(4).toString('hex')}`;
  round = 0;

  constructor(
    readonly running: RunningApp,
    readonly fakes: FakeGateways,
    url: string,
  ) {
    this.db = running.app.get<DataSource>(getDataSourceToken());
    this.url = url;
  }

  async setUp(): Promise<void> {
    await this.running.app.get(SitesService).ensureSite(this.siteId, 'Benchmark', null);
  }

  async raffle(name: string): Promise<{ id: string; item_id: string }> {
    const admin = await this.db.transaction((manager) =>
      this.running.app.get(AccountsService).create(
        {
          site_id: this.siteId,
          email: `admin-${randomBytes(4).toString('hex')}@bench.example.com`,
          name: 'Bench admin',
          role: 'admin',
          signup_source: 'bench',
          password_hash: null,
          data_processing_consent: true,
        },
        manager,
      ),
    );
    const actor = { id: admin.id, siteId: this.siteId, role: 'admin' as const, email: admin.email, jti: 'b' };
    const raffles = this.running.app.get(RaffleAdminService);
    const day = 24 * 60 * 60 * 1000;
    const draft = await raffles.create(actor, this.siteId, {
      name,
      currency: 'GBP',
      price_display: 2.5,
      total_entries_available: 10_000_000,
      points_enabled: true,
      start_date: new Date(Date.now() - day).toISOString(),
      end_date: new Date(Date.now() + 30 * day).toISOString(),
    });
    const published = await raffles.publish(actor, this.siteId, draft.id);
    return { id: published.id, item_id: published.item_id };
  }

  /** `count` guest orders of one ticket each (a new buyer each), completed at the fake gateway. */
  async paidOrders(itemId: string, count: number): Promise<string[]> {
    const orders = this.running.app.get(OrdersService);
    const tag = `${this.round++}-${randomBytes(3).toString('hex')}`;
    const indexes = Array.from({ length: count }, (_v, i) => i);
    return inParallel(indexes, 8, async (i) => {
      const { payment, checkout } = await orders.create(
        undefined,
        {
          gateway: 'gatewayone',
          siteId: this.siteId,
          buyer: { email: `b${tag}-${i}@bench.example.com` },
          itemId,
          quantity: 1,
        },
        NO_REQUEST,
      );
      this.fakes.gatewayOne.complete(checkout.checkoutId);
      return payment.id;
    });
  }

  /** The SQL one confirmation sends (TypeORM's logger sees every query), printed with BENCH_TRACE=1. */
  async trace(itemId: string): Promise<string[]> {
    const [id] = await this.paidOrders(itemId, 1);
    const seen: string[] = [];
    // TypeORM hands every query to its logger first; listen there for this one request.
    const logger = this.db.logger;
    const logQuery = logger.logQuery.bind(logger);
    logger.logQuery = (query: string) => void seen.push(query.replace(/\s+/g, ' '));
    try {
      const res = await fetch(`${this.url}/gatewayone/create-order`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ confirmation_only: true, order_id: id }),
      });
      if (res.status !== 200) throw new Error(`trace confirmation answered ${res.status}`);
    } finally {
      logger.logQuery = logQuery;
    }
    return seen;
  }

  /** Every payment in `ids` succeeded with exactly one entry, and the raffle's counter equals its tickets. */
  async verify(raffleId: string, ids: string[]): Promise<string[]> {
    const problems: string[] = [];
    const [row] = await this.db.query<Array<{ succeeded: string; entered: string; extra: string }>>(
      `SELECT count(*) FILTER (WHERE p.status = 'succeeded') AS succeeded,
              count(*) FILTER (WHERE e.n = 1) AS entered,
              count(*) FILTER (WHERE e.n > 1) AS extra
         FROM payment_transactions p
         LEFT JOIN (SELECT payment_transaction_id, count(*) AS n FROM raffle_entries
                     WHERE payment_transaction_id = ANY($1) GROUP BY 1) e ON e.payment_transaction_id = p.id
        WHERE p.id = ANY($1)`,
      [ids],
    );
    if (Number(row.succeeded) !== ids.length)
      problems.push(`${row.succeeded} of ${ids.length} payments succeeded`);
    if (Number(row.entered) !== ids.length) problems.push(`${row.entered} of ${ids.length} have one entry`);
    if (Number(row.extra) !== 0) problems.push(`${row.extra} payments have more than one entry`);
    problems.push(...(await this.counterProblems(raffleId)));
    return problems;
  }

  async counterProblems(raffleId: string): Promise<string[]> {
    const [c] = await this.db.query<
      Array<{ counter: string; sold: string; tickets: string; top: string | null; overlaps: string }>
    >(
      `SELECT r.current_entries AS counter,
              (SELECT coalesce(sum(entries_count), 0) FROM raffle_entries WHERE raffle_id = r.id) AS sold,
              (SELECT count(*) FROM raffle_entries WHERE raffle_id = r.id) AS tickets,
              (SELECT max(ticket_to) FROM raffle_entries WHERE raffle_id = r.id) AS top,
              (SELECT count(*) - count(DISTINCT ticket_from) FROM raffle_entries WHERE raffle_id = r.id)
                AS overlaps
         FROM raffles r WHERE r.id = $1`,
      [raffleId],
    );
    const problems: string[] = [];
    if (Number(c.sold) !== Number(c.counter))
      problems.push(`counter ${c.counter} but ${c.sold} tickets entered`);
    if (Number(c.tickets) > 0 && Number(c.top) !== Number(c.counter))
      problems.push(`highest ticket ${c.top} but counter ${c.counter}`);
    if (Number(c.overlaps) !== 0) problems.push(`${c.overlaps} entries share a first ticket`);
    return problems;
  }
}

/** Pending copies of a template payment, each of a new copy of its buyer: what pgbench confirms. */
async function ceilingOrders(db: DataSource, templateId: string, count: number): Promise<void> {
  await db.query(`DROP TABLE IF EXISTS bench_queue; DROP SEQUENCE IF EXISTS bench_seq`);
  await db.query(`CREATE SEQUENCE bench_seq`);
  await db.query(
    `CREATE TABLE bench_queue (n bigint PRIMARY KEY, payment_id uuid NOT NULL, user_id uuid NOT NULL)`,
  );
  await db.query(
    `INSERT INTO bench_queue (n, payment_id, user_id)
       SELECT n, gen_random_uuid(), gen_random_uuid() FROM generate_series(1, $1) AS n`,
    [count],
  );
  await db.query(
    `INSERT INTO users
       SELECT (jsonb_populate_record(NULL::users, to_jsonb(u) || jsonb_build_object(
                 'id', q.user_id, 'email', 'c' || q.user_id || '@bench.example.com',
                 'email_normalized', 'c' || q.user_id || '@bench.example.com'))).*
         FROM bench_queue q, users u, payment_transactions t
        WHERE t.id = $1 AND u.id = t.user_id`,
    [templateId],
  );
  await db.query(
    `INSERT INTO payment_transactions
       SELECT (jsonb_populate_record(NULL::payment_transactions, to_jsonb(t) || jsonb_build_object(
                 'id', q.payment_id, 'user_id', q.user_id, 'checkout_id', 'ceil-' || q.payment_id))).*
         FROM bench_queue q, payment_transactions t
        WHERE t.id = $1`,
    [templateId],
  );
  await db.query(`ANALYZE bench_queue`);
}

function pgbench(url: string, clients: number, seconds: number): number {
  const out = execFileSync(
    'pgbench',
    ['-n', '-f', SQL_FILE, '-c', String(clients), '-j', '2', '-T', String(seconds), url],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const tps = /tps = ([\d.]+)/.exec(out);
  const failed = /number of failed transactions: (\d+)/.exec(out);
  if (!tps) throw new Error(`pgbench said:\n${out}`);
  if (failed && Number(failed[1]) > 0) throw new Error(`pgbench: ${failed[1]} failed transactions`);
  return Number(tps[1]);
}

async function bench(url: string): Promise<void> {
  const fakes = await startFakeGateways({ timeoutMs: 30_000 });
  const running = await createApplication(testConfig({ ...fakes.config, databaseUrl: url }));
  try {
    const w = new World(running, fakes, await listenOnLoopback(running.app));
    await w.setUp();
    const appRaffle = await w.raffle('Bench raffle');
    const ceilRaffle = await w.raffle('Ceiling raffle');
    const [template] = await w.paidOrders(ceilRaffle.item_id, 1);
    const trace = await w.trace(appRaffle.item_id);
    process.stdout.write(`one confirmation sends ${trace.length} statements\n`);
    if (process.env.BENCH_TRACE) process.stdout.write(`${trace.map((q) => `  ${q}`).join('\n')}\n`);
    const app: Record<number, Sample[]> = {};
    const ceiling: Record<number, number[]> = {};
    let ipBase = 0;
    for (let rep = 1; rep <= REPS; rep++) {
      for (const connections of CONNECTIONS) {
        const ids = await w.paidOrders(appRaffle.item_id, ORDERS);
        const cpuBefore = process.cpuUsage();
        const load = await loadInChild({ url: w.url, ids, connections, ipBase });
        const cpu = process.cpuUsage(cpuBefore);
        // The app's (and the in-process fake gateway's) CPU over the run, in cores: 1.0 = one core busy.
        const cores = (cpu.user + cpu.system) / 1e6 / load.seconds;
        ipBase += load.setupCalls;
        const problems = await w.verify(appRaffle.id, ids);
        if (load.ok !== ids.length || load.errors || load.non2xx)
          problems.push(`${load.ok} 2xx, ${load.non2xx} other, ${load.errors} errors of ${ids.length}`);
        const rate = load.ok / load.seconds;
        (app[connections] ??= []).push({ rate, p99: load.p99 });

        await ceilingOrders(w.db, template, Math.ceil(CEILING_SECONDS * 4000));
        const tps = pgbench(url, connections, CEILING_SECONDS);
        (ceiling[connections] ??= []).push(tps);
        problems.push(...(await w.counterProblems(ceilRaffle.id)));
        process.stdout.write(
          `rep ${rep} c=${String(connections).padStart(2)}: app ${rate.toFixed(0).padStart(5)}/s ` +
            `p50 ${load.p50} ms p99 ${load.p99} ms (${load.ok} in ${load.seconds.toFixed(1)} s, ` +
            `app CPU ${cores.toFixed(2)} cores, ${((cores / rate) * 1000).toFixed(1)} ms each)   ` +
            `ceiling ${tps.toFixed(0).padStart(5)}/s   ratio ${(rate / tps).toFixed(2)}` +
            `${problems.length ? `   INCORRECT: ${problems.join('; ')}` : '   checks ok'}\n`,
        );
        if (problems.length) process.exitCode = 1;
      }
    }
    process.stdout.write(
      `\nmedians of ${REPS} (orders per app run ${ORDERS}, ceiling ${CEILING_SECONDS} s)\n`,
    );
    for (const c of CONNECTIONS) {
      const rate = median(app[c].map((s) => s.rate));
      const p99 = median(app[c].map((s) => s.p99));
      const tps = median(ceiling[c]);
      const ratios = app[c].map((s, i) => (s.rate / ceiling[c][i]).toFixed(2)).join(' ');
      process.stdout.write(
        `c=${String(c).padStart(2)}  app ${rate.toFixed(0).padStart(5)} confirmations/s  p99 ${p99} ms   ` +
          `ceiling ${tps.toFixed(0).padStart(5)}/s   app/ceiling ${(rate / tps).toFixed(2)} (per rep: ${ratios})\n`,
      );
    }
  } finally {
    await running.close();
    await fakes.close();
  }
}

async function main(): Promise<void> {
  execFileSync('pgbench', ['--version'], { stdio: 'ignore' });
  const name = `bench_purchase_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const admin = new Client({ connectionString: SERVER });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  try {
    const url = new URL(SERVER);
    url.pathname = `/${name}`;
    await bench(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

if (process.argv[2] === 'load') {
  process.once('message', (order: LoadOrder) => {
    runLoad(order)
      .then((result) => process.send?.(result, () => process.exit(0)))
      .catch((error: unknown) => {
        process.stderr.write(`${String(error)}\n`);
        process.exit(1);
      });
  });
} else {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
