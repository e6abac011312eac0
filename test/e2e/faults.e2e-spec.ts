import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { integrityReport, runIntegrityChecks } from '#app/infra/database/integrity/check-integrity.js';
import { type FakeGateways, startFakeGateways } from '../support/fake-gateways';
import { raffleBody } from '../support/raffles';
import { callService, type ServiceProcess, SERVICE_ADMIN, startService } from '../support/service-process';

/**
 * Issue 15, faults: the real service (`node dist/src/main.js`, as `npm start` runs it) killed with SIGKILL
 * while it confirms paid orders, then started again on the same database: every paid order ends with
 * exactly one entry, and the money-integrity checks hold. PostgreSQL only: the embedded database lives
 * inside the process that is killed.
 */
const onPostgres = !!process.env.TEST_DATABASE_URL;
const ADMIN = SERVICE_ADMIN;
const SITE = `faults-${randomBytes(3).toString('hex')}`;

(onPostgres ? describe : describe.skip)('faults (issue 15): SIGKILL in the middle of fulfilment', () => {
  let fakes: FakeGateways;
  let service: ServiceProcess;
  const db = new Client({ connectionString: process.env.E2E_DATABASE_URL });
  const dataDir = mkdtempSync(join(tmpdir(), 'faults-'));

  async function start(): Promise<void> {
    service = await startService({ fakes, siteId: SITE, databaseUrl: process.env.E2E_DATABASE_URL, dataDir });
  }

  const call = (path: string, body?: unknown, token?: string) =>
    callService(service.base, path, body, token, 'POST');

  beforeAll(async () => {
    fakes = await startFakeGateways({ timeoutMs: 10_000 });
    await db.connect();
    await start();
  }, 60_000);

  afterAll(async () => {
    service.child.kill('SIGKILL');
    await db.end();
    await fakes.close();
  });

  it('loses and duplicates nothing: each paid order ends with exactly one entry', async () => {
    const login = await call('/auth/login', { ...ADMIN, site_id: SITE });
    expect(login.status).toBe(200);
    const token = ((await login.json()) as { access_token: string }).access_token;
    const created = await call('/admin/raffles', raffleBody(), token);
    expect(created.status).toBe(201);
    const raffle = (await created.json()) as { id: string; item_id: string };
    expect((await call(`/admin/raffles/${raffle.id}/publish`, {}, token)).status).toBeLessThan(300);

    // 60 guest orders of 2 tickets, each paid at the gateway (the buyers' webhooks never arrive).
    const orders: string[] = [];
    for (let i = 0; i < 60; i++) {
      const res = await call('/gatewayone/create-order', {
        site_id: SITE,
        item_id: raffle.item_id,
        quantity: 2,
        customer_email: `buyer-${i}-${randomBytes(3).toString('hex')}@example.com`,
      });
      expect(res.status).toBe(200);
      const order = (await res.json()) as { order_id: string; checkout_id: string };
      fakes.gatewayOne.complete(order.checkout_id);
      orders.push(order.order_id);
    }

    // The buyers' browsers confirm all at once; the process dies while it works through them.
    let answered = 0;
    let killed!: () => void;
    const kill = new Promise<void>((resolve) => (killed = resolve));
    const confirming = orders.map((id) =>
      call('/gatewayone/create-order', { confirmation_only: true, order_id: id }).then(
        (r) => {
          if (++answered === 5) killed();
          return r.status;
        },
        () => 0,
      ),
    );
    await Promise.race([kill, new Promise((r) => setTimeout(r, 5_000))]);
    service.child.kill('SIGKILL');
    const first = await Promise.all(confirming);
    expect(first.filter((s) => s === 0).length).toBeGreaterThan(0); // some were cut off

    // Started again: the buyers retry, and reconciliation sweeps what nobody asked about again.
    await start();
    const again = await Promise.all(
      orders.map((id) => call('/gatewayone/create-order', { confirmation_only: true, order_id: id })),
    );
    expect(again.map((r) => r.status)).toEqual(orders.map(() => 200));
    const login2 = await call('/auth/login', { ...ADMIN, site_id: SITE });
    const token2 = ((await login2.json()) as { access_token: string }).access_token;
    expect((await call('/admin/jobs/reconciliation/run', undefined, token2)).status).toBe(200);

    const { rows } = await db.query<{
      paid: number;
      entries: number;
      one_each: number;
      tickets: number;
      counter: number;
    }>(
      `SELECT count(*)::int AS paid,
              (SELECT count(*)::int FROM raffle_entries e WHERE e.raffle_id = $1) AS entries,
              count(*) FILTER (WHERE (SELECT count(*) FROM raffle_entries e WHERE e.payment_transaction_id = p.id) = 1)::int AS one_each,
              (SELECT COALESCE(sum(entries_count), 0)::int FROM raffle_entries e WHERE e.raffle_id = $1) AS tickets,
              (SELECT current_entries FROM raffles WHERE id = $1) AS counter
         FROM payment_transactions p WHERE p.id = ANY($2::uuid[]) AND p.status = 'succeeded'`,
      [raffle.id, orders],
    );
    expect(rows[0]).toEqual({ paid: 60, entries: 60, one_each: 60, tickets: 120, counter: 120 });
    const outcomes = await runIntegrityChecks(
      async <R>(sql: string) => (await db.query(sql)).rows as R[],
      SITE,
    );
    expect(
      outcomes.filter((o) => o.violations > 0).length ? integrityReport(outcomes) : 'all checks hold',
    ).toBe('all checks hold');
  }, 120_000);
});
