import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '#app/infra/database/data-source-options.js';
import { type FakeGateways, startFakeGateways } from '../support/fake-gateways';
import { raffleBody } from '../support/raffles';
import { redisBinary, startRedis } from '../support/redis-server';
import { adminToken, callService, type ServiceProcess, startService } from '../support/service-process';
import { SmtpSink } from '../support/smtp-sink';

/**
 * Issue 15, scaling out (README): two instances of the built service (`node dist/src/main.js`), started
 * together on ONE PostgreSQL database and ONE Redis, both with job workers. Rate limits are counted across
 * them, and every job — queued e-mails, a scheduled run asked of both at once — does its work once.
 *
 * PostgreSQL only: the embedded database is one session inside one process (DESIGN §2), not something
 * instances share. Pointed at the run's embedded database, two instances' job workers queue behind each
 * other on that one session and logins timed out (503) under load; and concurrency proves nothing there.
 * Needs a redis-server binary (CI installs one: `.ci/run`).
 */
const binary = redisBinary();
const onPostgres = process.env.E2E_DATABASE_ENGINE === 'postgres';
const describeWithRedis = binary && onPostgres ? describe : describe.skip;

describeWithRedis('two instances behind one database and one Redis (issue 15)', () => {
  const SITE = `twoinst-${randomBytes(3).toString('hex')}`;
  const TAG = randomBytes(3).toString('hex');
  let fakes: FakeGateways;
  let redis: { url: string; stop(): Promise<void> };
  let smtp: SmtpSink;
  let db: Client;
  let a: ServiceProcess;
  let b: ServiceProcess;
  let token: string;

  beforeAll(async () => {
    fakes = await startFakeGateways({ timeoutMs: 10_000 });
    redis = await startRedis(binary!);
    smtp = await new SmtpSink().start();
    const shared = {
      fakes,
      siteId: SITE,
      databaseUrl: process.env.E2E_DATABASE_URL,
      redisUrl: redis.url,
      mailTransport: `smtp://127.0.0.1:${smtp.port}`,
    };
    // Migrated first, as a release step would: TypeORM takes no lock around migrations, and two instances
    // migrating one fresh database at once can both apply one (left open, docs/DECISIONS.md).
    const migrator = new DataSource(dataSourceOptions(process.env.E2E_DATABASE_URL!));
    await migrator.initialize();
    await migrator.destroy();
    // Started together, as a deploy of two replicas does: pg-boss's queues and the first admin race.
    const started = await Promise.allSettled([startService(shared), startService(shared)]);
    const up = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    if (up.length < 2) {
      for (const s of up) s.child.kill('SIGKILL');
      throw (started.find((s) => s.status === 'rejected') as PromiseRejectedResult).reason;
    }
    [a, b] = up;
    fakes.setWebhookBaseUrl(a.base);
    db = new Client({ connectionString: process.env.E2E_DATABASE_URL });
    await db.connect();
    token = await adminToken(a.base, SITE);
  }, 90_000);

  afterAll(async () => {
    const stopped = [a, b].filter(Boolean).map(async (s) => {
      if (s.child.exitCode === null) s.child.kill('SIGTERM');
      await s.exited;
    });
    await Promise.all(stopped);
    await db.end();
    await smtp.stop();
    await redis.stop();
    await fakes.close();
  }, 30_000);

  /** A login from a fixed address (the service trusts loopback's X-Forwarded-For). */
  const login = (base: string, email: string, ip: string) =>
    fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
      body: JSON.stringify({ email, password: 'not-the-Password-123', site_id: SITE }),
    });

  describe('shared rate limits (REDIS_URL)', () => {
    /**
     * 14 logins, two at a time — one through each instance at the same moment: the answers' statuses,
     * sorted. (Pairs, not all 14 at once: on a loaded machine 14 argon2 verifications at once once
     * left a request waiting past the database pool's connect timeout, a 503 that is not what this shows.)
     */
    const burst = async (attempt: (i: number) => { email: string; ip: string }) => {
      const answers: Response[] = [];
      for (let i = 0; i < 14; i += 2) {
        const pair = [a, b].map((s, j) => login(s.base, attempt(i + j).email, attempt(i + j).ip));
        answers.push(...(await Promise.all(pair)));
      }
      for (const res of answers.filter((r) => r.status === 429)) {
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(((await res.json()) as { code: string }).code).toBe('RATE_LIMITED');
      }
      return answers.map((r) => r.status).sort();
    };

    it('counts one e-mail’s failed logins across both instances: 10 a minute in all, wherever they land', async () => {
      const email = `limited-${TAG}@example.com`;
      const statuses = await burst((i) => ({ email, ip: `10.60.${i}.1` }));
      expect(statuses).toEqual([...Array(10).fill(401), ...Array(4).fill(429)]);
      // Refused on both now, whichever the next one reaches.
      for (const s of [a, b]) expect((await login(s.base, email, '10.60.99.1')).status).toBe(429);
    });

    it('counts one address’s logins across both instances, whatever the e-mail', async () => {
      const ip = `10.61.${Math.floor(Math.random() * 250)}.7`;
      const statuses = await burst((i) => ({ email: `ip-${i}-${TAG}@example.com`, ip }));
      expect(statuses).toEqual([...Array(10).fill(401), ...Array(4).fill(429)]);
    });
  });

  describe('each job once', () => {
    /** Waits until `done()` holds, then a little longer: a duplicate would come from the other worker. */
    async function settle(done: () => boolean, what: string): Promise<void> {
      const deadline = Date.now() + 20_000;
      while (!done()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      await new Promise((r) => setTimeout(r, 2_500));
    }

    /** Per recipient, how many messages of each kind arrived. */
    function kindsPerRecipient(recipients: string[]): Record<string, Record<string, number>> {
      const out: Record<string, Record<string, number>> = {};
      for (const to of recipients) {
        const kinds: Record<string, number> = {};
        for (const m of smtp.to(to))
          kinds[m.headers['x-mail-kind']] = (kinds[m.headers['x-mail-kind']] ?? 0) + 1;
        out[to] = kinds;
      }
      return out;
    }

    it('fulfils each paid order once when both instances are asked at once, and mails each buyer once', async () => {
      const created = await callService(a.base, '/admin/raffles', raffleBody(), token);
      expect(created.status).toBe(201);
      const raffle = (await created.json()) as { id: string; item_id: string };
      expect((await callService(b.base, `/admin/raffles/${raffle.id}/publish`, {}, token)).status).toBe(200);

      const buyers: string[] = [];
      const orders: string[] = [];
      for (let i = 0; i < 12; i++) {
        const email = `buyer-${i}-${TAG}@example.com`;
        const res = await callService(i % 2 ? b.base : a.base, '/gatewayone/create-order', {
          site_id: SITE,
          item_id: raffle.item_id,
          quantity: 2,
          customer_email: email,
        });
        expect(res.status).toBe(200);
        const order = (await res.json()) as { order_id: string; checkout_id: string };
        fakes.gatewayOne.complete(order.checkout_id);
        buyers.push(email);
        orders.push(order.order_id);
      }
      // Each buyer's confirmation reaches both instances at the same moment (a retried request, say).
      const answers = await Promise.all(
        orders.flatMap((id) =>
          [a, b].map((s) =>
            callService(s.base, '/gatewayone/create-order', { confirmation_only: true, order_id: id }).then(
              (r) => r.status,
            ),
          ),
        ),
      );
      expect(answers).toEqual(answers.map(() => 200));

      const { rows } = await db.query<{ paid: number; one_each: number; tickets: number; counter: number }>(
        `SELECT count(*)::int AS paid,
                count(*) FILTER (WHERE (SELECT count(*) FROM raffle_entries e WHERE e.payment_transaction_id = p.id) = 1)::int AS one_each,
                (SELECT COALESCE(sum(entries_count), 0)::int FROM raffle_entries e WHERE e.raffle_id = $1) AS tickets,
                (SELECT current_entries FROM raffles WHERE id = $1) AS counter
           FROM payment_transactions p WHERE p.id = ANY($2::uuid[]) AND p.status = 'succeeded'`,
        [raffle.id, orders],
      );
      expect(rows[0]).toEqual({ paid: 12, one_each: 12, tickets: 24, counter: 24 });

      await settle(() => buyers.every((to) => smtp.to(to).length > 0), 'the buyers’ e-mails');
      const kinds = kindsPerRecipient(buyers);
      for (const to of buyers) {
        expect(Object.keys(kinds[to]).length).toBeGreaterThan(0);
        expect({ to, kinds: kinds[to] }).toEqual({
          to,
          kinds: Object.fromEntries(Object.keys(kinds[to]).map((k) => [k, 1])),
        });
      }
    }, 60_000);

    it('a scheduled run asked of both instances at once charges and renews each membership once', async () => {
      const tierRes = await callService(
        a.base,
        '/admin/subscription-tiers',
        { name: `tier-${TAG}`, amount_cents: 300, currency: 'GBP', entry_credits_per_period: 10 },
        token,
      );
      expect(tierRes.status).toBe(201);
      const tier = (await tierRes.json()) as { id: string };
      // One member pays the first period through the gateway: its stored card is what renewals charge.
      const registered = await callService(b.base, '/auth/register', {
        email: `member-${TAG}@example.com`,
        password: 'member-Pass-word-4821',
        site_id: SITE,
        data_processing_consent: true,
        age_confirmed: true,
      });
      expect(registered.status).toBe(201);
      const member = (await registered.json()) as { access_token: string };
      const started = await callService(a.base, '/subscriptions', { tier_id: tier.id }, member.access_token);
      expect(started.status).toBe(201);
      const { subscription, checkout_id } = (await started.json()) as {
        subscription: { id: string };
        checkout_id: string;
      };
      fakes.gatewayOne.complete(checkout_id);
      expect(await fakes.gatewayOne.deliverWebhook(checkout_id)).toBe(200);
      const [{ gatewayone_registration_id: card }] = await until(async () => {
        const r = await db.query<{ gatewayone_registration_id: string }>(
          `SELECT gatewayone_registration_id FROM subscriptions WHERE id = $1 AND status = 'active'`,
          [subscription.id],
        );
        return r.rows.length ? r.rows : undefined;
      });

      // 40 memberships due now and 40 due in two days (their reminder is due), sharing that card.
      const seed = (prefix: string, due: string) =>
        db.query<{ email: string }>(
          `WITH users_made AS (
             INSERT INTO users (site_id, email, email_normalized, role, signup_source, data_processing_consent, has_consented)
             SELECT $2, $3 || g || '-' || $4 || '@example.com', $3 || g || '-' || $4 || '@example.com', 'user', 'register', true, true
               FROM generate_series(1, 40) g RETURNING id, email),
           subs AS (
             INSERT INTO subscriptions (site_id, user_id, tier_id, status, amount_cents, currency, billing_interval,
                                        entry_credits_per_period, current_period_start, current_period_end,
                                        next_billing_date, subscription_start_date, gatewayone_registration_id)
             SELECT $2, u.id, $1, 'active', 300, 'GBP', 'month', 10, now() - interval '1 month', now() + $5::interval,
                    now() + $5::interval, now() - interval '1 month', $6
               FROM users_made u RETURNING id)
           SELECT email FROM users_made`,
          [tier.id, SITE, prefix, TAG, due, card],
        );
      const dueNow = (await seed('due-', '-1 minute')).rows.map((r) => r.email);
      const dueSoon = (await seed('soon-', '2 days')).rows.map((r) => r.email);

      const chargesBefore = fakes.gatewayOne.registrationCharges().length;
      const run = (name: string) =>
        Promise.all(
          [a, b].map(async (s) => {
            const res = await callService(s.base, `/admin/jobs/${name}/run`, {}, token);
            expect(res.status).toBe(200);
            return ((await res.json()) as { affected: number }).affected;
          }),
        );
      // What each run answers is not compared: the hourly schedule may take some in the same minute.
      await run('renewals');
      const charges = fakes.gatewayOne.registrationCharges().slice(chargesBefore);
      expect(charges).toHaveLength(40);
      expect(new Set(charges.map((c) => c.merchantTransactionId)).size).toBe(40);
      const { rows } = await db.query(
        `SELECT count(*) FILTER (WHERE s.next_billing_date > now() + interval '20 days')::int AS renewed,
                count(*) FILTER (WHERE s.pending_payment_id IS NOT NULL)::int AS in_flight,
                (SELECT count(*)::int FROM payment_transactions p
                  WHERE p.subscription_id = ANY(array_agg(s.id)) AND p.status = 'succeeded') AS paid,
                (SELECT count(*)::int FROM payment_transactions p WHERE p.subscription_id = ANY(array_agg(s.id))) AS payments
           FROM subscriptions s JOIN users u ON u.id = s.user_id WHERE u.email = ANY($1::text[])`,
        [dueNow],
      );
      expect(rows[0]).toEqual({ renewed: 40, in_flight: 0, paid: 40, payments: 40 });

      await run('reminders');
      await settle(() => dueSoon.every((to) => smtp.to(to).length > 0), 'the reminders');
      const kinds = kindsPerRecipient([...dueSoon, ...dueNow]);
      expect(Object.values(kinds).filter((k) => Object.values(k).some((n) => n > 1))).toEqual([]);
      for (const to of dueSoon) expect(kinds[to]).toEqual({ subscription_reminder: 1 });
    }, 60_000);
  });
});

/** Polls `probe` until it answers something (20 s at most). */
async function until<T>(probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}
