import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Logger } from '@nestjs/common';
import { GatewayOneClient } from '#app/infra/providers/gatewayone/gatewayone.client.js';
import { decryptWebhook, GatewayOneWebhookError } from '#app/infra/providers/gatewayone/gatewayone.rules.js';
import {
  type FakeGateways,
  pressOnHostedPage,
  startFakeGateways,
  startReceiver,
} from '../support/fake-gateways';
import { providerFailure as failure } from '../support/provider-failure';

// Retries are logged as warnings; in the app they go through pino, here they would clutter the output.
beforeAll(() => {
  Logger.overrideLogger(false);
});

let counter = 0;
const orderId = (): string => `order-${Date.now()}-${++counter}`;

describe('gatewayone adapter against its protocol fake over loopback HTTP', () => {
  let fakes: FakeGateways;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let client: GatewayOneClient;
  /** The same client, giving up after 200 ms per attempt. */
  let impatient: GatewayOneClient;
  const secrets = (): string[] => [fakes.config.gatewayOne.accessToken, fakes.config.gatewayOne.webhookKey];

  beforeAll(async () => {
    receiver = await startReceiver();
    fakes = await startFakeGateways({ webhookBaseUrl: receiver.url });
    client = new GatewayOneClient({ gatewayOne: fakes.config.gatewayOne });
    impatient = client.withSettings({ timeoutMs: 200 });
  });
  afterAll(async () => {
    await fakes.close();
    await receiver.close();
  });
  beforeEach(() => {
    fakes.gatewayOne.resetControls();
    receiver.received.length = 0;
  });

  it('opens a checkout with the amount in major units, our reference and custom parameters', async () => {
    const ref = orderId();
    const created = await client.createCheckout({
      amountCents: 1210,
      currency: 'gbp',
      merchantTransactionId: ref,
      customParameters: { SITE_ID: 'main', ORDER_KIND: 'raffle' },
    });
    expect(created).toMatchObject({ id: expect.any(String), resultCode: '000.200.100' });
    expect(created.integrity).toBeUndefined();
    const [request] = fakes.gatewayOne.requests;
    expect(request).toMatchObject({
      method: 'POST',
      path: '/gatewayone/v1/checkouts',
      authorization: true,
      body: {
        entityId: fakes.config.gatewayOne.entityId,
        amount: '12.10',
        currency: 'GBP',
        paymentType: 'DB',
        merchantTransactionId: ref,
        'customParameters[SITE_ID]': 'main',
        'customParameters[ORDER_KIND]': 'raffle',
      },
    });
    expect(JSON.stringify(fakes.gatewayOne.requests)).not.toContain(fakes.config.gatewayOne.accessToken);
    expect(fakes.gatewayOne.payments.get(created.id)).toMatchObject({
      amount: '12.10',
      merchantTransactionId: ref,
    });
  });

  it('reports a fresh checkout as pending, then as succeeded once paid on the hosted page', async () => {
    const ref = orderId();
    const created = await client.createCheckout({
      amountCents: 2500,
      currency: 'EUR',
      merchantTransactionId: ref,
      shopperResultUrl: 'https://shop.example/return?from=gw1',
    });
    expect(await client.getCheckoutPayment(created.id)).toMatchObject({
      checkoutId: created.id,
      paymentId: undefined,
      resultCode: '000.200.000',
      outcome: 'pending',
    });

    const paid = await pressOnHostedPage(`${fakes.config.gatewayOne.baseUrl}/pay/${created.id}`, 'pay');
    expect(paid.status).toBe(303);
    const back = new URL(paid.headers.get('location') ?? '');
    expect(back.origin + back.pathname).toBe('https://shop.example/return');
    expect(back.searchParams.get('from')).toBe('gw1');
    expect(back.searchParams.get('id')).toBe(created.id);
    expect(back.searchParams.get('resourcePath')).toBe(`/v1/checkouts/${created.id}/payment`);

    const payment = await client.getCheckoutPayment(created.id);
    expect(payment).toMatchObject({
      checkoutId: created.id,
      paymentId: expect.any(String),
      resultCode: '000.100.110',
      outcome: 'succeeded',
      amountCents: 2500,
      currency: 'EUR',
      merchantTransactionId: ref,
    });
  });

  it('delivers an encrypted webhook for the payment that only the configured key opens', async () => {
    const ref = orderId();
    const created = await client.createCheckout({
      amountCents: 999,
      currency: 'GBP',
      merchantTransactionId: ref,
      customParameters: { SITE_ID: 'main' },
    });
    await pressOnHostedPage(`${fakes.config.gatewayOne.baseUrl}/pay/${created.id}`, 'pay');
    expect(receiver.received).toHaveLength(1);
    const [hook] = receiver.received;
    expect(hook.path).toBe('/gatewayone/webhook');
    const body = JSON.parse(hook.body) as { encryptedBody: string };
    expect(Object.keys(body)).toEqual(['encryptedBody']);
    expect(hook.body).not.toContain(ref);
    const sealed = {
      encryptedBody: body.encryptedBody,
      ivHex: String(hook.headers['x-initialization-vector']),
      tagHex: String(hook.headers['x-authentication-tag']),
    };
    const event = client.openWebhook(sealed);
    const payment = await client.getCheckoutPayment(created.id);
    expect(event).toMatchObject({
      type: 'PAYMENT',
      payload: {
        id: payment.paymentId,
        ndc: created.id,
        result: { code: '000.100.110' },
        amount: '9.99',
        currency: 'GBP',
        merchantTransactionId: ref,
        customParameters: { SITE_ID: 'main' },
      },
    });
    expect(() => decryptWebhook(sealed, 'cd'.repeat(32))).toThrow(GatewayOneWebhookError);
  });

  it('lets tests send tampered webhooks that fail authentication', async () => {
    const created = await client.createCheckout({
      amountCents: 100,
      currency: 'GBP',
      merchantTransactionId: orderId(),
    });
    fakes.gatewayOne.complete(created.id);
    for (const corrupt of ['body', 'iv', 'tag'] as const) {
      expect(await fakes.gatewayOne.deliverWebhook(created.id, { corrupt })).toBe(200);
    }
    expect(await fakes.gatewayOne.deliverWebhook(created.id, { key: 'ef'.repeat(32) })).toBe(200);
    expect(receiver.received).toHaveLength(4);
    for (const hook of receiver.received) {
      const sealed = {
        encryptedBody: (JSON.parse(hook.body) as { encryptedBody: string }).encryptedBody,
        ivHex: String(hook.headers['x-initialization-vector']),
        tagHex: String(hook.headers['x-authentication-tag']),
      };
      expect(() => client.openWebhook(sealed)).toThrow(GatewayOneWebhookError);
    }
  });

  it('reports a declined payment as failed with the gateway’s code (the gateway answers it with 400)', async () => {
    const created = await client.createCheckout({
      amountCents: 500,
      currency: 'GBP',
      merchantTransactionId: orderId(),
    });
    const declined = await pressOnHostedPage(
      `${fakes.config.gatewayOne.baseUrl}/pay/${created.id}`,
      'decline',
    );
    expect(declined.status).toBe(200);
    expect(await client.getCheckoutPayment(created.id)).toMatchObject({
      resultCode: '800.100.151',
      outcome: 'failed',
      paymentId: expect.any(String),
    });
  });

  it('reports a payment sent to manual review as review', async () => {
    const created = await client.createCheckout({
      amountCents: 500,
      currency: 'GBP',
      merchantTransactionId: orderId(),
    });
    fakes.gatewayOne.complete(created.id, '000.400.000');
    expect(await client.getCheckoutPayment(created.id)).toMatchObject({ outcome: 'review' });
  });

  it('returns the widget integrity hash when asked, matching the script the gateway serves', async () => {
    const created = await client.createCheckout({
      amountCents: 100,
      currency: 'GBP',
      merchantTransactionId: orderId(),
      integrity: true,
    });
    expect(created.integrity).toMatch(/^sha384-[A-Za-z0-9+/]+=*$/);
    const script = await fetch(client.widgetScriptUrl(created.id));
    expect(script.status).toBe(200);
    expect(await script.text()).toContain(`/pay/${created.id}`);
  });

  it('finds what the gateway holds under our reference, and nothing under an unknown one', async () => {
    const ref = orderId();
    expect(await client.findByMerchantTransactionId(ref)).toEqual([]);
    const created = await client.createCheckout({
      amountCents: 700,
      currency: 'GBP',
      merchantTransactionId: ref,
    });
    expect(await client.findByMerchantTransactionId(ref)).toMatchObject([
      { checkoutId: created.id, paymentId: undefined, outcome: 'pending', amountCents: 700, currency: 'GBP' },
    ]);
    fakes.gatewayOne.complete(created.id);
    expect(await client.findByMerchantTransactionId(ref)).toMatchObject([
      { checkoutId: created.id, paymentId: expect.any(String), outcome: 'succeeded' },
    ]);
  });

  it('retries a read after server errors and answers once the gateway recovers', async () => {
    const created = await client.createCheckout({
      amountCents: 100,
      currency: 'GBP',
      merchantTransactionId: orderId(),
    });
    fakes.gatewayOne.resetControls();
    fakes.gatewayOne.failNext(2);
    expect(await client.getCheckoutPayment(created.id)).toMatchObject({ outcome: 'pending' });
    expect(fakes.gatewayOne.requests).toHaveLength(3);
  });

  it('gives up on a read after two retries and says the gateway is unavailable', async () => {
    fakes.gatewayOne.failNext(3, 502);
    const error = await failure(client.findByMerchantTransactionId(orderId()));
    expect(error).toMatchObject({ provider: 'gatewayone', kind: 'unavailable', httpStatus: 502 });
    expect(fakes.gatewayOne.requests).toHaveLength(3);
  });

  it('treats a gateway slower than the timeout as unavailable', async () => {
    const created = await client.createCheckout({
      amountCents: 100,
      currency: 'GBP',
      merchantTransactionId: orderId(),
    });
    fakes.gatewayOne.resetControls();
    fakes.gatewayOne.setLatency(1_000);
    const started = Date.now();
    const error = await failure(impatient.getCheckoutPayment(created.id));
    expect(error.kind).toBe('unavailable');
    expect(error.message).toMatch(/no answer within 200 ms/);
    // A read's retries share its one timeout: a timed-out attempt spent it, so nothing is asked again.
    expect(Date.now() - started).toBeLessThan(400);
    expect(fakes.gatewayOne.requests).toHaveLength(1);
  });

  it('treats a gateway that is down, answering 503 or dropping connections, as unavailable', async () => {
    fakes.gatewayOne.goDown();
    expect(await failure(client.findByMerchantTransactionId(orderId()))).toMatchObject({
      kind: 'unavailable',
      httpStatus: 503,
    });
    fakes.gatewayOne.goDown('reset');
    expect((await failure(client.findByMerchantTransactionId(orderId()))).kind).toBe('unavailable');
    fakes.gatewayOne.comeUp();
    expect(await client.findByMerchantTransactionId(orderId())).toEqual([]);
  });

  it('never sends a checkout creation twice on its own', async () => {
    fakes.gatewayOne.failNext(1);
    const ref = orderId();
    const error = await failure(
      client.createCheckout({ amountCents: 100, currency: 'GBP', merchantTransactionId: ref }),
    );
    expect(error.kind).toBe('unavailable');
    expect(fakes.gatewayOne.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    expect(fakes.gatewayOne.checkoutFor(ref)).toBeUndefined();
  });

  it('creates once after looking the order up, and reuses a checkout whose creation answer was lost', async () => {
    const ref = orderId();
    fakes.gatewayOne.setLatency(600);
    const lost = await failure(
      impatient.createCheckout({ amountCents: 1500, currency: 'GBP', merchantTransactionId: ref }),
    );
    expect(lost.kind).toBe('unavailable');
    const opened = fakes.gatewayOne.checkoutFor(ref);
    expect(opened).toBeDefined();

    fakes.gatewayOne.resetControls();
    const again = await client.createCheckoutOnce({
      amountCents: 1500,
      currency: 'GBP',
      merchantTransactionId: ref,
    });
    expect(again).toMatchObject({ id: opened!.id, reused: true });
    expect(fakes.gatewayOne.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /gatewayone/v1/query',
    ]);
    expect(
      [...fakes.gatewayOne.payments.values()].filter((c) => c.merchantTransactionId === ref),
    ).toHaveLength(1);

    const fresh = orderId();
    const created = await client.createCheckoutOnce({
      amountCents: 1500,
      currency: 'GBP',
      merchantTransactionId: fresh,
    });
    expect(created.reused).toBe(false);
    expect(fakes.gatewayOne.checkoutFor(fresh)?.id).toBe(created.id);
  });

  it('does not reuse a failed checkout or one for another amount', async () => {
    const ref = orderId();
    const first = await client.createCheckout({
      amountCents: 800,
      currency: 'GBP',
      merchantTransactionId: ref,
    });
    fakes.gatewayOne.complete(first.id, '800.100.151');
    const second = await client.createCheckoutOnce({
      amountCents: 800,
      currency: 'GBP',
      merchantTransactionId: ref,
    });
    expect(second).toMatchObject({ reused: false });
    expect(second.id).not.toBe(first.id);
    const third = await client.createCheckoutOnce({
      amountCents: 900,
      currency: 'GBP',
      merchantTransactionId: ref,
    });
    expect(third.reused).toBe(false);
  });

  it('refunds a payment once under our refund reference, and reports a refund beyond what was paid as failed', async () => {
    const created = await client.createCheckout({
      amountCents: 1000,
      currency: 'GBP',
      merchantTransactionId: orderId(),
    });
    const { paymentId } = fakes.gatewayOne.complete(created.id);
    const ref = `${orderId()}-refunds`;
    fakes.gatewayOne.resetControls();
    expect(await client.refund(paymentId!, 400, 'GBP', ref)).toMatchObject({
      outcome: 'succeeded',
      id: expect.any(String),
    });
    expect(fakes.gatewayOne.requests[0]).toMatchObject({
      path: `/gatewayone/v1/payments/${paymentId}`,
      body: { amount: '4.00', currency: 'GBP', paymentType: 'RF', merchantTransactionId: ref },
    });
    expect(await client.refund(paymentId!, 700, 'GBP', ref)).toMatchObject({
      outcome: 'failed',
      resultCode: '700.400.200',
    });
    // What the refunds under the reference gave back: the declined one counts for nothing.
    expect(await client.refundedUnder(ref)).toBe(400);
    expect(await client.refundedUnder(`${orderId()}-refunds`)).toBe(0);
    fakes.gatewayOne.resetControls();
    fakes.gatewayOne.failNext(1);
    expect((await failure(client.refund(paymentId!, 100, 'GBP', ref))).kind).toBe('unavailable');
    expect(fakes.gatewayOne.requests).toHaveLength(1);
  });

  it('is refused, naming the status but never the token, when the credentials are wrong', async () => {
    const wrongToken = client.withSettings({ accessToken: 'wrong-token-value' });
    const error = await failure(wrongToken.findByMerchantTransactionId(orderId()));
    expect(error).toMatchObject({ kind: 'rejected', httpStatus: 401, providerCode: '800.900.300' });
    expect(error.message).not.toContain('wrong-token-value');
    const wrongEntity = client.withSettings({ entityId: 'another-entity' });
    expect(
      await failure(
        wrongEntity.createCheckout({ amountCents: 100, currency: 'GBP', merchantTransactionId: orderId() }),
      ),
    ).toMatchObject({
      kind: 'rejected',
      httpStatus: 403,
    });
  });

  it('refuses amounts the gateway cannot take before sending anything', async () => {
    await expect(
      client.createCheckout({ amountCents: -1, currency: 'GBP', merchantTransactionId: orderId() }),
    ).rejects.toThrow(/non-negative/);
    await expect(
      client.createCheckout({ amountCents: 1.5, currency: 'GBP', merchantTransactionId: orderId() }),
    ).rejects.toThrow();
    expect(fakes.gatewayOne.requests).toHaveLength(0);
  });

  it('is refused by the gateway for an amount in the wrong format', async () => {
    const res = await fetch(`${fakes.config.gatewayOne.baseUrl}/v1/checkouts`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${fakes.config.gatewayOne.accessToken}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        entityId: fakes.config.gatewayOne.entityId,
        amount: '12.1',
        currency: 'GBP',
        paymentType: 'DB',
      }).toString(),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      result: { code: '200.300.404', parameterErrors: [{ name: 'amount' }] },
    });
  });

  it('scrubs credentials a misbehaving gateway echoes back into its error', async () => {
    const echo = createServer((req, res) => {
      res.writeHead(400, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          result: { code: '200.300.404', description: `bad header ${req.headers.authorization}` },
        }),
      );
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
      const error = await failure(
        client
          .withSettings({ baseUrl: base })
          .createCheckout({ amountCents: 100, currency: 'GBP', merchantTransactionId: 'x' }),
      );
      expect(error.kind).toBe('rejected');
      expect(error.message).toContain('[REDACTED]');
      for (const secret of secrets()) expect(error.message).not.toContain(secret);
    } finally {
      await new Promise<void>((resolve) => echo.close(() => resolve()));
    }
  });

  it('says so when it is not configured, without calling anyone', async () => {
    const unconfigured = new GatewayOneClient({ gatewayOne: undefined });
    expect(unconfigured.configured).toBe(false);
    expect(await failure(unconfigured.getCheckoutPayment('x'))).toMatchObject({
      kind: 'unavailable',
      message: 'gatewayone is not configured',
    });
  });
});
