import 'reflect-metadata';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { getDataSourceToken } from '@nestjs/typeorm';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { createApplication } from '#app/bootstrap.js';
import { DrawService } from '#app/modules/raffles/draws/draw.service.js';
import { RaffleAdminService } from '#app/modules/raffles/raffle-admin.service.js';
import { SitesService } from '#app/modules/sites/sites.service.js';
import { benchConfig } from './bench-app.js';

/**
 * `npm run bench:draw` (issue 13): close and draw a raffle of 1,000,000 tickets in 10,000 entries on
 * PostgreSQL, in a throwaway database. The raffle and its entries are seeded set-based (SQL); the close
 * (which streams the ticket list to hash it) and the draw run through the app's own services, as the
 * admin routes call them. Reports each step's time and this process's peak resident memory before and
 * after (the app booted is the baseline; the close and the draw must not add the list to it).
 */
const TICKETS = Number(process.env.BENCH_TICKETS ?? 1_000_000);
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 10_000);
const WINNERS = Number(process.env.BENCH_WINNERS ?? 10);
const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';

const out = (line: string): void => void process.stdout.write(`${line}\n`);
const mb = (kb: number): string => `${(kb / 1024).toFixed(0)} MB`;
const peakKb = (): number => process.resourceUsage().maxRSS;

async function run(url: string): Promise<void> {
  const running = await createApplication(
    benchConfig('draw', { databaseUrl: url, logLevel: process.env.BENCH_LOG_LEVEL ?? 'warn' }),
  );
  try {
    const app = running.app;
    const db = app.get<DataSource>(getDataSourceToken());
    const siteId = `draw-${randomBytes(4).toString('hex')}`;
    await app.get(SitesService).ensureSite(siteId, 'Draw benchmark', null);
    const perEntry = Math.floor(TICKETS / ENTRIES);
    const seed = randomBytes(32);
    const raffleId = randomUUID();
    const t0 = Date.now();
    await db.query(
      `INSERT INTO users (site_id, email, email_normalized, role, signup_source, data_processing_consent, has_consented)
       SELECT $1, 'd' || g || '@bench.example.com', 'd' || g || '@bench.example.com', 'user', 'bench', true, true
         FROM generate_series(1, $2::int) g`,
      [siteId, ENTRIES],
    );
    await db.query(
      `INSERT INTO raffles (id, site_id, item_id, name, currency, price_cents, total_entries_available,
              current_entries, active, draft, start_date, end_date, published_on, draw_seed, draw_seed_hash)
       VALUES ($1, $2, 'bench-draw', 'Draw benchmark', 'GBP', 100, $3, $3, true, false,
               now() - interval '2 days', now() + interval '1 day', now(), $4, $5)`,
      [
        raffleId,
        siteId,
        perEntry * ENTRIES,
        seed.toString('hex'),
        createHash('sha256').update(seed).digest('hex'),
      ],
    );
    await db.query(
      `INSERT INTO raffle_entries (raffle_id, user_id, site_id, method, entries_count, ticket_from, ticket_to)
       SELECT $1, u.id, $2, CASE WHEN u.n % 10 = 0 THEN 'postal' ELSE 'paid' END, $3::int,
              (u.n - 1) * $3::int + 1, u.n * $3::int
         FROM (SELECT id, row_number() OVER (ORDER BY email) AS n FROM users WHERE site_id = $2) u`,
      [raffleId, siteId, perEntry],
    );
    await db.query(`ANALYZE raffle_entries`);
    out(`seeded ${perEntry * ENTRIES} tickets in ${ENTRIES} entries in ${Date.now() - t0} ms`);

    const actor: AuthUser = {
      id: randomUUID(),
      siteId,
      role: 'superadmin',
      email: 'bench@example.com',
      jti: 'bench',
    };
    const baseline = peakKb();
    let t = Date.now();
    await app.get(RaffleAdminService).close(actor, siteId, raffleId);
    const closeMs = Date.now() - t;
    const afterClose = peakKb();
    t = Date.now();
    const result = await app.get(DrawService).draw(actor, siteId, raffleId, { winners: WINNERS });
    const drawMs = Date.now() - t;
    const afterDraw = peakKb();
    const [row] = await db.query<Array<{ ticket_list_hash: string }>>(
      `SELECT ticket_list_hash FROM raffles WHERE id = $1`,
      [raffleId],
    );
    out(`close (stream + hash the ticket list): ${closeMs} ms; hash ${row.ticket_list_hash}`);
    out(`draw of ${result.winners.length} winners: ${drawMs} ms`);
    out(
      `peak RSS: ${mb(baseline)} with the app booted and seeded, ${mb(afterClose)} after the close, ${mb(afterDraw)} after the draw`,
    );
  } finally {
    await running.close();
  }
}

async function main(): Promise<void> {
  out(
    `bench:draw — close + draw of ${TICKETS} tickets in ${ENTRIES} entries (PostgreSQL, throwaway database)`,
  );
  const name = `bench_draw_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const admin = new Client({ connectionString: SERVER });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  try {
    const url = new URL(SERVER);
    url.pathname = `/${name}`;
    await run(url.toString());
  } finally {
    if (!process.env.BENCH_KEEP_DB) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
