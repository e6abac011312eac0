import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Client } from 'pg';
import type { FakeGateways } from '../test/support/fake-gateways.js';
import { SUCCESS_CODE } from '#app/infra/providers/gatewayone/fake/fake-gatewayone.js';
import type { AppChild } from './purchase-app-child.js';
import type { LoadOrder, LoadResult, PaidOrder } from './purchase-protocol.js';

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

export const percentile = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? NaN;
};

/** autocannon in a process of its own. */
export function loadInChild(order: LoadOrder): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(join(__dirname, 'purchase-load.js'), [], { stdio: 'inherit' });
    child.once('message', (m) => resolve(m as LoadResult));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code) reject(new Error(`load process exited with ${code}`));
    });
    child.send(order);
  });
}

/** Paid orders: one made through the order service, the rest copied from it; the fake gateway holds them paid. */
export async function paidOrders(
  app: AppChild,
  fakes: FakeGateways,
  itemId: string,
  count: number,
): Promise<PaidOrder[]> {
  const template = await app.ask<PaidOrder>('template', { itemId });
  fakes.gatewayOne.complete(template.checkoutId);
  const copies =
    count > 1
      ? await app.ask<PaidOrder[]>('clone', { templateId: template.paymentId, count: count - 1 })
      : [];
  for (const o of copies) {
    const now = new Date();
    fakes.gatewayOne.payments.set(o.checkoutId, {
      id: o.checkoutId,
      amount: o.amount,
      currency: o.currency,
      merchantTransactionId: o.paymentId,
      customParameters: {},
      createRegistration: false,
      createdAt: now,
      resultCode: SUCCESS_CODE,
      paymentId: randomBytes(16).toString('hex'),
      completedAt: now,
      refunds: [],
    });
  }
  return [template, ...copies];
}

/**
 * Lets go of what the fake gateway kept of a run once it is checked: its request log (kept for tests'
 * assertions) and the run's checkouts, which otherwise grew through the whole benchmark (~30,000 of each in
 * a default run), in the process that serves the gateway to the app.
 */
export function forgetRun(fakes: FakeGateways, orders: PaidOrder[]): void {
  fakes.gatewayOne.resetControls();
  for (const o of orders) fakes.gatewayOne.payments.delete(o.checkoutId);
}

/** The correctness checks every run must pass: one entry per paid order, counter = tickets, no shared ticket. */
export async function verify(url: string, raffleId: string, ids: string[]): Promise<string[]> {
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    const problems: string[] = [];
    const {
      rows: [row],
    } = await db.query<{ succeeded: string; entered: string; extra: string }>(
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
    const {
      rows: [c],
    } = await db.query<{
      counter: string;
      sold: string;
      entries: string;
      top: string | null;
      overlaps: string;
    }>(
      `SELECT r.current_entries AS counter,
              (SELECT coalesce(sum(entries_count), 0) FROM raffle_entries WHERE raffle_id = r.id) AS sold,
              (SELECT count(*) FROM raffle_entries WHERE raffle_id = r.id) AS entries,
              (SELECT max(ticket_to) FROM raffle_entries WHERE raffle_id = r.id) AS top,
              (SELECT count(*) - count(DISTINCT ticket_from) FROM raffle_entries WHERE raffle_id = r.id) AS overlaps
         FROM raffles r WHERE r.id = $1`,
      [raffleId],
    );
    if (Number(c.sold) !== Number(c.counter))
      problems.push(`counter ${c.counter} but ${c.sold} tickets entered`);
    if (Number(c.entries) > 0 && Number(c.top) !== Number(c.counter))
      problems.push(`highest ticket ${c.top} but counter ${c.counter}`);
    if (Number(c.overlaps) !== 0) problems.push(`${c.overlaps} entries share a first ticket`);
    return problems;
  } finally {
    await db.end();
  }
}
