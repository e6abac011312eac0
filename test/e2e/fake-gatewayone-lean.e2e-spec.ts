import { GatewayOneClient } from '#app/infra/providers/gatewayone/gatewayone.client.js';
import { DECLINE_CODE } from '#app/infra/providers/gatewayone/fake/fake-gatewayone.js';
import { type FakeGateways, startFakeGateways } from '../support/fake-gateways';

/**
 * The benchmarks' fake gateway answers a checkout's status read without Express (`lean`). What it answers
 * must be what the route answers, or the benchmark would measure the app against another protocol: each
 * read is asked of the lean path and then, with a control set (which sends it through Express), of the
 * route, and the two answers compared.
 */
describe('the lean status read of the fake gatewayone', () => {
  let fakes: FakeGateways;
  let client: GatewayOneClient;
  let counter = 0;

  beforeAll(async () => {
    fakes = await startFakeGateways({ lean: true });
    client = new GatewayOneClient({ gatewayOne: fakes.config.gatewayOne });
  });
  afterAll(() => fakes.close());
  beforeEach(() => fakes.gatewayOne.resetControls());

  const checkout = async (): Promise<string> =>
    (
      await client.createCheckout({
        amountCents: 1210,
        currency: 'GBP',
        merchantTransactionId: `lean-${Date.now()}-${++counter}`,
        customParameters: { SITE_ID: 'main' },
      })
    ).id;

  interface Answer {
    status: number;
    type: string | null;
    body: Record<string, unknown>;
  }

  /** `entity: null` sends no entity at all. */
  interface Who {
    token?: string;
    entity?: string | null;
    /** Sent before the entity in the query string. */
    query?: string;
  }

  const read = async (id: string, who: Who = {}): Promise<Answer> => {
    const token = who.token ?? fakes.config.gatewayOne.accessToken;
    const entity = who.entity === undefined ? fakes.config.gatewayOne.entityId : who.entity;
    const query = entity === null ? '' : `?${who.query ?? ''}entityId=${encodeURIComponent(entity)}`;
    const res = await fetch(
      `${fakes.config.gatewayOne.baseUrl}/v1/checkouts/${encodeURIComponent(id)}/payment${query}`,
      {
        headers: { Authorization: `Bearer ${token}` },
      },
    );
    return {
      status: res.status,
      type: res.headers.get('content-type'),
      body: (await res.json()) as Record<string, unknown>,
    };
  };

  /** The lean answer, then the route's (a 1 ms latency sends the read through Express); both logged or not. */
  const bothWays = async (id: string, who?: Who): Promise<[Answer, Answer]> => {
    const logged = fakes.gatewayOne.requests.length;
    const lean = await read(id, who);
    expect(fakes.gatewayOne.requests).toHaveLength(logged);
    fakes.gatewayOne.setLatency(1);
    const routed = await read(id, who);
    expect(fakes.gatewayOne.requests).toHaveLength(logged + 1);
    return [lean, routed];
  };

  it('answers a paid checkout as the route does, and the adapter reads it as paid', async () => {
    const id = await checkout();
    const { paymentId } = fakes.gatewayOne.complete(id);
    const [lean, routed] = await bothWays(id);
    expect(lean.status).toBe(200);
    expect(lean).toEqual(routed);
    expect(lean.body).toMatchObject({ id: paymentId, amount: '12.10', currency: 'GBP', ndc: id });
    fakes.gatewayOne.setLatency(0);
    const logged = fakes.gatewayOne.requests.length;
    await expect(client.getCheckoutPayment(id)).resolves.toMatchObject({ outcome: 'succeeded', paymentId });
    expect(fakes.gatewayOne.requests).toHaveLength(logged);
  });

  it('answers a declined payment with 400 and its result, as the route does', async () => {
    const id = await checkout();
    fakes.gatewayOne.complete(id, DECLINE_CODE);
    const [lean, routed] = await bothWays(id);
    expect(lean.status).toBe(400);
    expect(lean).toEqual(routed);
    expect(lean.body).toMatchObject({ result: { code: DECLINE_CODE } });
  });

  it('answers a checkout not yet paid as pending, as the route does (but for the time of the answer)', async () => {
    const id = await checkout();
    const [lean, routed] = await bothWays(id);
    expect(lean.status).toBe(200);
    const { timestamp: leanAt, ...leanRest } = lean.body;
    const { timestamp: routedAt, ...routedRest } = routed.body;
    expect(leanRest).toEqual(routedRest);
    expect(leanRest).toMatchObject({ result: { code: '000.200.000' }, ndc: id });
    expect([typeof leanAt, typeof routedAt]).toEqual(['string', 'string']);
  });

  it('answers an unknown checkout, a wrong token, a wrong, missing or repeated entity as the route does', async () => {
    const id = await checkout();
    const cases = [
      { id: 'no-such-checkout', status: 404 },
      { id, who: { token: 'wrong' }, status: 401 },
      { id, who: { entity: 'entity-other' }, status: 403 },
      { id, who: { entity: null }, status: 403 },
      { id, who: { query: 'entityId=entity-other&' }, status: 403 },
      { id, who: { query: 'extra=1&' }, status: 200 },
    ];
    // A pending checkout's answer carries the time it was given, in whole seconds: the two reads may fall on
    // either side of a second's edge (the case above holds the rest of that answer equal).
    const untimed = (a: Answer): Answer => {
      const { timestamp: _at, ...body } = a.body;
      return { ...a, body };
    };
    for (const c of cases) {
      fakes.gatewayOne.resetControls();
      const [lean, routed] = await bothWays(c.id, c.who);
      expect(lean.status).toBe(c.status);
      expect(untimed(lean)).toEqual(untimed(routed));
    }
  });

  it('leaves a malformed checkout id to the route', async () => {
    const res = await fetch(
      `${fakes.config.gatewayOne.baseUrl}/v1/checkouts/%E0%A4%A/payment?entityId=${fakes.config.gatewayOne.entityId}`,
      { headers: { Authorization: `Bearer ${fakes.config.gatewayOne.accessToken}` } },
    );
    expect(res.status).toBe(400);
  });

  it('leaves the read to the route while the fake is down or failing', async () => {
    const id = await checkout();
    fakes.gatewayOne.complete(id);
    const logged = fakes.gatewayOne.requests.length;
    fakes.gatewayOne.goDown('unavailable');
    expect((await read(id)).status).toBe(503);
    fakes.gatewayOne.comeUp();
    fakes.gatewayOne.failNext(1, 502);
    expect((await read(id)).status).toBe(502);
    expect((await read(id)).status).toBe(200);
    expect(fakes.gatewayOne.requests).toHaveLength(logged + 2);
  });
});
