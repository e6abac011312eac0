import { gatewaySettings } from '#app/config/gateway-config.js';
import { GatewayOneClient } from '#app/infra/providers/gatewayone/gatewayone.client.js';
import { GatewayTwoClient } from '#app/infra/providers/gatewaytwo/gatewaytwo.client.js';
import { SandboxGateways } from '#app/infra/providers/sandbox/sandbox-gateways.js';
import { api } from '../support/api';
import { freePort } from '../support/net';
import { createTestApp, TEST_JWT_SECRET, type TestApp } from '../support/app';

/** A shopper on the sandbox's hosted page: reads it, presses a button, does not follow the redirect. */
async function press(payUrl: string, decision: 'pay' | 'decline'): Promise<Response> {
  const page = await fetch(payUrl);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/text\/html/);
  expect(await page.text()).toContain('<button name="decision" value="pay">Pay</button>');
  return fetch(payUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: `decision=${decision}`,
    redirect: 'manual',
  });
}

describe('PROVIDERS=sandbox: fake gateways mounted on the app itself', () => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // The same defaults loadConfig gives a newcomer without DATABASE_URL.
    const gateways = gatewaySettings(
      {},
      { providers: 'sandbox', publicBaseUrl: base, jwtSecret: TEST_JWT_SECRET },
    );
    t = await createTestApp({ providers: 'sandbox', publicBaseUrl: base, ...gateways });
    await t.app.listen(port, '127.0.0.1');
  });
  afterAll(async () => {
    await t.close();
  });

  it('lets a newcomer pay a gatewayone checkout through the app’s own sandbox', async () => {
    const client = new GatewayOneClient(t.config);
    expect(t.config.gatewayOne?.baseUrl).toBe(`${base}/sandbox/gatewayone`);
    const created = await client.createCheckout({
      amountCents: 1210,
      currency: 'GBP',
      merchantTransactionId: 'sandbox-order-1',
      shopperResultUrl: 'https://shop.example/thanks',
    });
    const paid = await press(`${base}/sandbox/gatewayone/pay/${created.id}`, 'pay');
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toMatch(/^https:\/\/shop\.example\/thanks\?id=/);
    expect(await client.getCheckoutPayment(created.id)).toMatchObject({
      outcome: 'succeeded',
      amountCents: 1210,
    });

    // Its webhook went to the app's own route, encrypted with the configured key.
    const sandbox = t.app.get(SandboxGateways);
    expect(sandbox.gatewayOne.webhooks).toHaveLength(1);
    const [hook] = sandbox.gatewayOne.webhooks;
    expect(hook.url).toBe(`${base}/gatewayone/webhook`);
    const sealed = {
      encryptedBody: (JSON.parse(hook.body) as { encryptedBody: string }).encryptedBody,
      ivHex: hook.headers['X-Initialization-Vector'],
      tagHex: hook.headers['X-Authentication-Tag'],
    };
    expect(client.openWebhook(sealed).payload.merchantTransactionId).toBe('sandbox-order-1');
  });

  it('lets a newcomer pay a gatewaytwo order at the checkout URL it answers', async () => {
    const client = new GatewayTwoClient(t.config);
    const created = await client.createOrder({
      amountCents: 500,
      currency: 'GBP',
      description: 'Sandbox order',
      reference: 'sandbox-order-2',
      redirectUrl: 'https://shop.example/back',
    });
    expect(created.checkoutUrl).toBe(`${base}/sandbox/gatewaytwo/pay/${created.id}`);
    const paid = await press(created.checkoutUrl, 'pay');
    expect(paid.headers.get('location')).toBe('https://shop.example/back');
    expect(await client.getOrder(created.id)).toMatchObject({
      outcome: 'succeeded',
      reference: 'sandbox-order-2',
    });
    expect(t.app.get(SandboxGateways).gatewayTwo.webhooks[0]?.url).toBe(`${base}/gatewaytwo/webhook`);
  });

  it('serves the hosted page without a token, with the app’s request id, and 404 for an unknown checkout', async () => {
    const res = await api(t.app).get('/sandbox/gatewayone/pay/no-such-checkout').expect(404);
    expect(res.headers['x-request-id']).toBeDefined();
    expect(res.text).toContain('Unknown checkout');
    await api(t.app).post('/sandbox/gatewayone/v1/checkouts', { amount: '1.00' }).expect(401);
  });

  it('keeps the sandbox out of the API document', async () => {
    const doc = await api(t.app).get('/docs-json').expect(200);
    const paths = Object.keys(doc.body.paths as Record<string, unknown>);
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.filter((p) => p.startsWith('/sandbox'))).toEqual([]);
  });
});

describe('PROVIDERS=live', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ providers: 'live' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('mounts no sandbox', async () => {
    await api(t.app).get('/sandbox/gatewayone/pay/anything').expect(404);
    await api(t.app).get('/sandbox/gatewaytwo/pay/anything').expect(404);
  });
});
