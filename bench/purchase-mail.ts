import { Client } from 'pg';
import type { FakeGateways } from '../test/support/fake-gateways.js';
import type { SmtpSink } from '../test/support/smtp-sink.js';
import type { AppChild } from './purchase-app-child.js';
import type { PaidOrder } from './purchase-protocol.js';
import { loadInChild, paidOrders, percentile } from './purchase-world.js';

/** Queues that completed fewer jobs than this over the burst are left out of the rates. */
const MIN_JOBS_FOR_A_RATE = 20;

export interface MailFigures {
  idle_p50_ms: number;
  idle_p95_ms: number;
  burst: number;
  burst_seconds: number;
  burst_last_mail_after_s: number;
  jobs_per_s: Record<string, number>;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const isPurchaseMail = (subject: string | undefined): boolean =>
  /^Your .*(ticket|order|payment)/i.test(subject ?? '');

/** Waits until `addresses` have each received a purchase e-mail; answers when the last arrived (ms). */
async function purchaseMails(smtp: SmtpSink, addresses: Set<string>, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  const arrived = new Map<string, number>();
  let scanned = 0;
  for (;;) {
    for (; scanned < smtp.messages.length; scanned++) {
      const m = smtp.messages[scanned];
      if (!isPurchaseMail(m.subject)) continue;
      for (const to of m.to) if (addresses.has(to) && !arrived.has(to)) arrived.set(to, m.at);
    }
    if (arrived.size >= addresses.size) return Math.max(...arrived.values());
    if (Date.now() > deadline)
      throw new Error(`only ${arrived.size} of ${addresses.size} purchase e-mails within ${timeoutMs} ms`);
    await sleep(5);
  }
}

/**
 * Item 6 of the issue: how soon the buyer hears. A real instance with job workers on and mail going to a
 * loopback SMTP server: (1) 50 purchases one after another on an idle system, each timed from the
 * confirmation's answer to its purchase e-mail; (2) a burst of `burst` purchases confirmed by 50 clients,
 * timed from the burst's last answer to the last purchase e-mail; (3) jobs completed per second per queue
 * over the burst.
 */
export async function mailPhase(
  app: AppChild,
  appUrl: string,
  dbUrl: string,
  fakes: FakeGateways,
  smtp: SmtpSink,
  itemId: string,
  burst: number,
): Promise<MailFigures> {
  const delays: number[] = [];
  for (let i = 0; i < 50; i++) {
    const [order] = await paidOrders(app, fakes, itemId, 1);
    const res = await fetch(`${appUrl}/gatewayone/create-order`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.200.0.${i + 1}` },
      body: JSON.stringify({ confirmation_only: true, order_id: order.paymentId }),
    });
    const answered = Date.now();
    if (res.status !== 200) throw new Error(`idle purchase answered ${res.status}: ${await res.text()}`);
    const last = await purchaseMails(smtp, new Set([order.email]), 30_000);
    delays.push(Math.max(0, last - answered));
  }

  const orders: PaidOrder[] = await paidOrders(app, fakes, itemId, burst);
  const since = new Date();
  const load = await loadInChild({
    url: appUrl,
    ids: orders.map((o) => o.paymentId),
    connections: 50,
    ipBase: 1 << 20,
  });
  const burstEnd = Date.now();
  if (load.ok !== burst) throw new Error(`burst: ${load.ok} of ${burst} answered 2xx`);
  const last = await purchaseMails(smtp, new Set(orders.map((o) => o.email)), 300_000);

  const db = new Client({ connectionString: dbUrl });
  await db.connect();
  const { rows } = await db.query<{ name: string; n: string; seconds: string }>(
    `SELECT name, count(*) AS n,
            EXTRACT(EPOCH FROM max(completed_on) - min(started_on)) AS seconds
       FROM pgboss.job WHERE state = 'completed' AND started_on >= $1
      GROUP BY name ORDER BY name`,
    [since],
  );
  await db.end();
  // A queue that ran a job or two in the window (a schedule's tick: the reconciliation, pg-boss's own cron)
  // has no rate to speak of: one job in 33 ms read as "30 jobs/s".
  const jobsPerS: Record<string, number> = {};
  for (const r of rows)
    if (Number(r.n) >= MIN_JOBS_FOR_A_RATE)
      jobsPerS[r.name] = Math.round(Number(r.n) / Math.max(Number(r.seconds), 0.001));
  return {
    idle_p50_ms: percentile(delays, 50),
    idle_p95_ms: percentile(delays, 95),
    burst,
    burst_seconds: load.seconds,
    burst_last_mail_after_s: Math.round((last - burstEnd) / 100) / 10,
    jobs_per_s: jobsPerS,
  };
}
