import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getDataSourceToken } from '@nestjs/typeorm';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { createApplication } from '#app/bootstrap.js';
import { SitesService } from '#app/modules/sites/sites.service.js';
import { User } from '#app/modules/users/entities/user.entity.js';
import { accessTokenOf, accountMaker } from '../test/support/bench-accounts.js';
import { benchConfig, listenOnLoopback } from './bench-app.js';

/**
 * `npm run bench:explain` (issue 15): every list the service serves, read at ~1M rows per big table.
 * The app runs here, on a PostgreSQL database filled set-based (bench/explain-seed.sql); each list
 * endpoint is called over HTTP (first page, then the page after its cursor, with its filters) while
 * the statements the app sends are recorded, and each SELECT is then run again under
 * EXPLAIN (ANALYZE, BUFFERS). Flags a Seq Scan on a big table and a Sort of more than SORT_FLAG rows.
 *
 * BENCH_EXPLAIN_DB=<name> reuses a filled database (kept by BENCH_KEEP_DB=1): migrations added since
 * run at start-up, so the same rows are read before and after an index. BENCH_ROWS (1,000,000).
 */
const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const USERS = Number(process.env.BENCH_USERS ?? ROWS);
const BIG = new Set([
  'users',
  'payment_transactions',
  'raffle_entries',
  'point_transactions',
  'activity_logs',
  'discount_codes',
  'discount_claims',
  'discount_code_tags',
  'subscriptions',
  'inbound_events',
  'merch_orders',
]);
const SORT_FLAG = 1000;
const SITE = 'bigsite';
const out = (line: string): void => void process.stdout.write(`${line}\n`);

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

/** What is wrong in a plan: a Seq Scan of a big table, a Sort fed more than SORT_FLAG rows. */
function flags(node: PlanNode, found: string[] = []): string[] {
  if (node['Node Type'] === 'Seq Scan' && node['Relation Name'] && BIG.has(node['Relation Name']))
    found.push(`Seq Scan on ${node['Relation Name']}`);
  if (node['Node Type'] === 'Sort') {
    const fed = (node.Plans ?? []).reduce(
      (n, p) => n + (p['Actual Rows'] ?? 0) * (p['Actual Loops'] ?? 1),
      0,
    );
    if (fed > SORT_FLAG) found.push(`Sort of ${fed} rows`);
  }
  for (const child of node.Plans ?? []) flags(child, found);
  return found;
}

async function seed(db: Client, member: string): Promise<void> {
  const sql = readFileSync(join(__dirname, '..', '..', 'bench', 'explain-seed.sql'), 'utf8')
    .replace(/:site\b/g, `'${SITE}'`)
    .replace(/:member\b/g, `'${member}'`)
    .replace(/:n\b/g, String(ROWS));
  await db.query(
    `INSERT INTO users (site_id, email, email_normalized, role, signup_source, data_processing_consent, created_at)
     SELECT $1, 'u' || g || '@big.example.com', 'u' || g || '@big.example.com', 'user', 'bench', true,
            now() - g * interval '1 second'
       FROM generate_series(1, $2::int) g`,
    [SITE, USERS],
  );
  await db.query(
    `INSERT INTO raffles (site_id, item_id, name, currency, price_cents, total_entries_available, draft, active,
                          start_date, end_date, published_on)
     SELECT $1, 'item-' || g, 'Raffle ' || g, 'GBP', 250, 10000000, g % 4 = 0, g % 4 <> 0,
            now() - interval '1 day', now() + g * interval '1 hour', now()
       FROM generate_series(1, 2000) g`,
    [SITE],
  );
  for (const statement of sql.split(/;\s*\n/).filter((s) => s.replace(/--.*$/gm, '').trim())) {
    const t = Date.now();
    await db.query(statement);
    out(`  ${statement.replace(/--.*$/gm, '').trim().split('\n')[0].slice(0, 90)} … ${Date.now() - t} ms`);
  }
  await db.query('ANALYZE');
}

async function main(): Promise<void> {
  const reuse = process.env.BENCH_EXPLAIN_DB;
  const name = reuse ?? `bench_explain_${Date.now()}`;
  const admin = new Client({ connectionString: SERVER });
  await admin.connect();
  if (!reuse) await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(SERVER);
  url.pathname = `/${name}`;
  const running = await createApplication(
    benchConfig('explain', { databaseUrl: url.toString(), logLevel: 'silent' }),
  );
  const app = running.app;
  const db = new Client({ connectionString: url.toString() });
  await db.connect();
  let flagged = 0;
  try {
    const base = await listenOnLoopback(app);
    await app.get(SitesService).ensureSite(SITE, 'Big site', null);
    const make = accountMaker(app, SITE, 'big.example.com');
    let member: User;
    if (!reuse) {
      member = await make('user');
      out(`filling ${name} with ${ROWS} rows per big table…`);
      await seed(db, member.id);
    } else {
      // The member the seed gave every 100th row to: the user with the most ledger rows.
      const [{ user_id }] = (
        await db.query(
          `SELECT user_id FROM point_transactions GROUP BY user_id ORDER BY count(*) DESC LIMIT 1`,
        )
      ).rows as Array<{ user_id: string }>;
      member = await app
        .get<DataSource>(getDataSourceToken())
        .getRepository(User)
        .findOneByOrFail({ id: user_id });
    }
    const adminToken = await accessTokenOf(app, await make('admin'));
    const memberToken = await accessTokenOf(app, member);
    const superToken = await accessTokenOf(app, await make('superadmin'));
    const ids = (
      await db.query(
        `SELECT (SELECT id FROM raffles WHERE site_id = $1 AND NOT draft LIMIT 1) AS raffle,
              (SELECT user_id FROM subscriptions WHERE site_id = $1 OFFSET 5000 LIMIT 1) AS subscriber,
              (SELECT email FROM users WHERE site_id = $1 OFFSET 7000 LIMIT 1) AS email`,
        [SITE],
      )
    ).rows[0] as { raffle: string; subscriber: string; email: string };

    // Every list endpoint (openapi.json: GET with cursor, or an array answer), with its filters.
    const lists: Array<[string, string]> = [
      ['public', `/raffles?site_id=${SITE}`],
      ['public', `/raffles/${ids.raffle}/winners?site_id=${SITE}`],
      ['public', `/discount-brands?site_id=${SITE}`],
      ['public', `/discount-codes?site_id=${SITE}`],
      ['public', `/discount-codes?site_id=${SITE}&featured=true`],
      ['public', `/discount-codes?site_id=${SITE}&brand=brand-7`],
      ['public', `/discount-codes?site_id=${SITE}&tag=tag-7`],
      ['public', `/tags?site_id=${SITE}`],
      ['public', `/merch/products?site_id=${SITE}`],
      ['public', `/subscription-tiers?site_id=${SITE}`],
      ['member', `/users/me/entries`],
      ['member', `/rewards/points?site_id=${SITE}`],
      ['member', `/rewards/referrals?site_id=${SITE}`],
      ['member', `/subscriptions`],
      ['admin', `/admin/raffles?site_id=${SITE}`],
      ['admin', `/admin/users?site_id=${SITE}`],
      ['admin', `/admin/users?site_id=${SITE}&email=${encodeURIComponent(ids.email)}`],
      ['admin', `/admin/payments?site_id=${SITE}`],
      ['admin', `/admin/payments?site_id=${SITE}&status=pending`],
      ['admin', `/admin/payments?site_id=${SITE}&status=review`],
      ['admin', `/admin/subscriptions?site_id=${SITE}`],
      ['admin', `/admin/subscriptions?site_id=${SITE}&status=past_due`],
      ['admin', `/admin/subscriptions?site_id=${SITE}&user_id=${ids.subscriber}`],
      ['admin', `/admin/subscription-tiers?site_id=${SITE}`],
      ['admin', `/admin/inbound-events?site_id=${SITE}`],
      ['admin', `/admin/inbound-events?site_id=${SITE}&provider=gatewayone&status=failed`],
      ['admin', `/admin/raffle-winners/unclaimed`],
      ['super', `/admin/site-configs`],
      ['admin', `/admin/integrations/dead-letters`],
      ['admin', `/admin/outbox?site_id=${SITE}`],
      ['admin', `/api/admin/merch/orders?site_id=${SITE}`],
      ['admin', `/api/admin/merch/orders?site_id=${SITE}&status_stage=awaiting_payment`],
    ];

    // The statements the app sends, recorded around each call.
    const recorded: Array<{ text: string; values: unknown[] }> = [];
    let recording = false;
    const proto = Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
    const original = proto.query;
    proto.query = function (this: Client, ...args: unknown[]) {
      const [q, v] = args as [unknown, unknown];
      if (recording && this !== db) {
        const text = typeof q === 'string' ? q : (q as { text?: string }).text;
        const values = Array.isArray(v) ? v : ((q as { values?: unknown[] }).values ?? []);
        if (text) recorded.push({ text, values });
      }
      return original.apply(this, args);
    };

    const summary: string[] = [];
    for (const [who, first] of lists) {
      const token = ({ admin: adminToken, member: memberToken, super: superToken } as Record<string, string>)[
        who
      ];
      let path: string | undefined = first;
      for (let page = 1; page <= 2 && path; page++) {
        recorded.length = 0;
        recording = true;
        const t = process.hrtime.bigint();
        const res = await fetch(`${base}${path}`, {
          headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'x-forwarded-for': '10.44.0.1' },
        });
        const body = await res.text();
        const ms = Number(process.hrtime.bigint() - t) / 1e6;
        recording = false;
        const label = `GET ${path}`;
        out(`\n=== ${label}  → ${res.status} in ${ms.toFixed(1)} ms (${body.length} bytes)`);
        if (res.status >= 400) out(`    ${body.slice(0, 200)}`);
        // The job queue's own polling (pg-boss) is not the request's.
        const selects = recorded.filter(
          (r) => /^\s*(WITH|SELECT)\b/i.test(r.text) && !r.text.includes('pgboss.'),
        );
        let worst = 0;
        const found: string[] = [];
        for (const s of selects) {
          const [json] = (await db.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${s.text}`, s.values))
            .rows as Array<{
            'QUERY PLAN': Array<{ Plan: PlanNode; 'Execution Time': number }>;
          }>;
          const plan = json['QUERY PLAN'][0];
          const bad = flags(plan.Plan);
          worst = Math.max(worst, plan['Execution Time']);
          found.push(...bad);
          // Every list query (ORDER BY) in full; the rest (auth, lookups) only when flagged.
          if (/ORDER BY/i.test(s.text) || bad.length) {
            const text = (await db.query(`EXPLAIN (ANALYZE, BUFFERS) ${s.text}`, s.values)).rows
              .map((r: { 'QUERY PLAN': string }) => `    ${r['QUERY PLAN']}`)
              .join('\n');
            out(`  --- ${s.text.replace(/\s+/g, ' ').slice(0, 400)}`);
            out(`      params ${JSON.stringify(s.values).slice(0, 200)}`);
            out(text);
            if (bad.length) out(`  FLAG: ${bad.join('; ')}`);
          }
        }
        if (found.length) flagged++;
        summary.push(
          `${found.length ? 'FLAG' : 'ok  '} ${label.padEnd(95)} ${String(res.status)} ${ms.toFixed(1).padStart(8)} ms http, ` +
            `slowest statement ${worst.toFixed(2)} ms${found.length ? `  (${[...new Set(found)].join('; ')})` : ''}`,
        );
        const next = res.headers.get('x-next-cursor');
        path = next
          ? `${first}${first.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(next)}`
          : undefined;
      }
    }
    proto.query = original;
    out(`\nSummary (${ROWS} rows per big table):`);
    for (const line of summary) out(`  ${line}`);
    out(flagged ? `\n${flagged} call(s) flagged` : '\nnothing flagged');
  } finally {
    await db.end();
    await running.close();
    if (!process.env.BENCH_KEEP_DB && !reuse)
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    else out(`database kept: BENCH_EXPLAIN_DB=${name}`);
    await admin.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
