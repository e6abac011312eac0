import type { AddressInfo } from 'node:net';
import { integrityReport, runIntegrityChecks } from '#app/infra/database/integrity/check-integrity.js';
import {
  classLines,
  type MixedResult,
  mixedProblems,
  runMixedLoad,
  seedMixedWorld,
} from '../support/mixed-workload';
import { type PaymentsWorld, startPaymentsWorld, stopPaymentsWorld } from '../support/payments';

/**
 * Issue 15, load in CI: the short form of `npm run bench:mixed` — the same workload module (browse,
 * quote, buy and confirm, claim, read the summary) at 20 connections, two cycles of 13 requests each, on
 * the run's engine. Every request answers as expected (no 5xx, no 4xx, no socket error), orders get confirmed,
 * and the money-integrity checks hold afterwards.
 */
describe('mixed load, short form (issue 15)', () => {
  let w: PaymentsWorld;
  let result: MixedResult;

  beforeAll(async () => {
    w = await startPaymentsWorld({ gatewayTimeoutMs: 10_000 });
  });

  afterAll(() => stopPaymentsWorld(w));

  it('answers every request of 20 connections as expected, and the money adds up after', async () => {
    // startPaymentsWorld has the app listening on loopback already (the fakes' webhooks reach it).
    const url = `http://127.0.0.1:${(w.t.app.getHttpServer().address() as AddressInfo).port}`;
    const world = await seedMixedWorld(w.t.app, url, { members: 20, raffles: 3 });
    result = await runMixedLoad(world, {
      connections: 20,
      // Two whole cycles per connection (26 requests each): every route class is covered on any machine.
      cycles: Number(process.env.MIXED_LOAD_CYCLES ?? 2),
      complete: (checkoutId) => void w.fakes.gatewayOne.complete(checkoutId),
    });
    process.stdout.write(
      `mixed load (${process.env.E2E_DATABASE_ENGINE}): ${result.rps.toFixed(0)} req/s, p50 ${result.p50} ms, ` +
        `p99 ${result.p99} ms, ${result.confirmed} orders confirmed, longest event-loop stall ${result.maxLoopStallMs} ms\n${classLines(result).join('\n')}\n`,
    );
    expect(mixedProblems(result)).toEqual([]);
    expect(result.confirmed).toBeGreaterThan(0);
    expect(result.classes.claim.count).toBeGreaterThan(0);

    const outcomes = await runIntegrityChecks(<R>(sql: string) => w.t.db.query<R[]>(sql), world.siteId);
    const failed = outcomes.filter((o) => o.violations > 0);
    expect(failed.length ? integrityReport(failed) : 'all checks hold').toBe('all checks hold');
  }, 300_000);
});
