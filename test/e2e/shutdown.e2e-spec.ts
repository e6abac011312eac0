import { randomBytes } from 'node:crypto';
import { type FakeGateways, startFakeGateways } from '../support/fake-gateways';
import { raffleBody } from '../support/raffles';
import { adminToken, callService, type ServiceProcess, startService } from '../support/service-process';

/**
 * Issue 15, operations: SIGTERM under load. The service (`node dist/src/main.js`) stops taking new
 * connections, finishes every request it had taken — paid-order confirmations, each a whole fulfilment —
 * and exits 0. A request is either answered in full or refused at connect; none is cut off half-way.
 * On PostgreSQL when the run has it, else on the service's own embedded database.
 */
describe('graceful shutdown under load (issue 15)', () => {
  const SITE = `shutdown-${randomBytes(3).toString('hex')}`;
  let fakes: FakeGateways;
  let service: ServiceProcess;

  beforeAll(async () => {
    fakes = await startFakeGateways({ timeoutMs: 10_000 });
    service = await startService({
      fakes,
      siteId: SITE,
      databaseUrl: process.env.TEST_DATABASE_URL ? process.env.E2E_DATABASE_URL : undefined,
    });
  }, 90_000);

  afterAll(async () => {
    if (service.child.exitCode === null) service.child.kill('SIGKILL');
    await fakes.close();
  });

  it('answers every request it took, then exits 0', async () => {
    const token = await adminToken(service.base, SITE);
    const created = await callService(service.base, '/admin/raffles', raffleBody(), token);
    const raffle = (await created.json()) as { id: string; item_id: string };
    await callService(service.base, `/admin/raffles/${raffle.id}/publish`, {}, token);
    const orders: string[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await callService(service.base, '/gatewayone/create-order', {
        site_id: SITE,
        item_id: raffle.item_id,
        quantity: 1,
        customer_email: `b${i}-${randomBytes(3).toString('hex')}@example.com`,
      });
      const order = (await res.json()) as { order_id: string; checkout_id: string };
      fakes.gatewayOne.complete(order.checkout_id);
      orders.push(order.order_id);
    }

    let answered = 0;
    let termed!: () => void;
    const term = new Promise<void>((resolve) => (termed = resolve));
    const outcomes = orders.map((id) =>
      callService(service.base, '/gatewayone/create-order', { confirmation_only: true, order_id: id }).then(
        async (r) => {
          if (++answered === 3) termed();
          await r.arrayBuffer();
          return `${r.status}`;
        },
        (error: unknown) => String((error as { cause?: { code?: string } }).cause?.code ?? error),
      ),
    );
    await Promise.race([term, new Promise((r) => setTimeout(r, 5_000))]);
    service.child.kill('SIGTERM');
    const atTerm = answered;
    const results = await Promise.all(outcomes);
    expect(await service.exited).toBe(0);
    // Answered in full, or refused before the service took it: never reset half-way, never a 5xx.
    expect(results.filter((r) => r !== '200' && r !== 'ECONNREFUSED')).toEqual([]);
    // Some were still being worked on when the signal came, and were finished.
    expect(results.filter((r) => r === '200').length).toBeGreaterThan(atTerm);
  }, 120_000);
});
