import { Logger } from '@nestjs/common';
import { GatewayTwoClient } from '#app/infra/providers/gatewaytwo/gatewaytwo.client.js';
import { verifyWebhookSignature } from '#app/infra/providers/gatewaytwo/gatewaytwo.rules.js';
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

describe('gatewaytwo adapter against its protocol fake over loopback HTTP', () => {
  let fakes: FakeGateways;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let client: GatewayTwoClient;

  beforeAll(async () => {
    receiver = await startReceiver();
    fakes = await startFakeGateways({ webhookBaseUrl: receiver.url });
    client = new GatewayTwoClient({ gatewayTwo: fakes.config.gatewayTwo });
  });
  afterAll(async () => {
    await fakes.close();
    await receiver.close();
  });
  beforeEach(() => {
    fakes.gatewayTwo.resetControls();
    receiver.received.length = 0;
  });

  const newOrder = (ref = orderId()) =>
    client.createOrder({
      amountCents: 1999,
      currency: 'GBP',
      description: '10 tickets <Summer draw>',
      reference: ref,
      redirectUrl: 'https://shop.example/done',
      customerEmail: 'buyer@example.com',
    });

  it('creates an order in minor units with our reference and the customer, and answers its checkout URL', async () => {
    const ref = orderId();
    const created = await newOrder(ref);
    expect(created).toMatchObject({ id: expect.any(String), token: expect.any(String), state: 'pending' });
    expect(created.checkoutUrl).toBe(`${fakes.config.gatewayTwo.baseUrl}/pay/${created.id}`);
    expect(fakes.gatewayTwo.requests[0]).toMatchObject({
      method: 'POST',
      path: '/gatewaytwo/api/orders',
      authorization: true,
      body: {
        amount: 1999,
        currency: 'GBP',
        description: '10 tickets <Summer draw>',
        merchant_order_data: { reference: ref },
        redirect_url: 'https://shop.example/done',
        customer: { email: 'buyer@example.com' },
      },
    });
  });

  it('reports an order paid on the hosted page as succeeded, and sends a signed ORDER_COMPLETED webhook', async () => {
    const ref = orderId();
    const created = await newOrder(ref);
    expect(await client.getOrder(created.id)).toMatchObject({ state: 'pending', outcome: 'pending' });
    const page = await fetch(created.checkoutUrl);
    expect(await page.text()).toContain('10 tickets &#60;Summer draw&#62;');

    const paid = await pressOnHostedPage(created.checkoutUrl, 'pay');
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe('https://shop.example/done');
    expect(await client.getOrder(created.id)).toMatchObject({
      id: created.id,
      state: 'completed',
      outcome: 'succeeded',
      amountCents: 1999,
      currency: 'GBP',
      reference: ref,
    });

    expect(receiver.received).toHaveLength(1);
    const [hook] = receiver.received;
    expect(hook.path).toBe('/gatewaytwo/webhook');
    const check = {
      rawBody: hook.body,
      timestampHeader: String(hook.headers['revolut-request-timestamp']),
      signatureHeader: String(hook.headers['revolut-signature']),
      secret: fakes.config.gatewayTwo.webhookSecret,
      now: Date.now(),
    };
    expect(verifyWebhookSignature(check)).toEqual({ valid: true });
    expect(client.verifyWebhook({ ...check, rawBody: Buffer.from(hook.body) })).toEqual({
      event: 'ORDER_COMPLETED',
      order_id: created.id,
      merchant_order_ext_ref: ref,
    });
  });

  it('reports a declined order as failed and a cancelled one as cancelled', async () => {
    const declined = await newOrder();
    await pressOnHostedPage(declined.checkoutUrl, 'decline');
    expect(await client.getOrder(declined.id)).toMatchObject({ state: 'failed', outcome: 'failed' });
    const cancelled = await newOrder();
    await pressOnHostedPage(cancelled.checkoutUrl, 'cancel');
    expect(await client.getOrder(cancelled.id)).toMatchObject({ state: 'cancelled', outcome: 'cancelled' });
    expect(receiver.received.map((r) => (JSON.parse(r.body) as { event: string }).event)).toEqual([
      'ORDER_PAYMENT_FAILED',
      'ORDER_CANCELLED',
    ]);
  });

  it('lets tests send webhooks with a wrong signature or a stale timestamp, which the adapter refuses', async () => {
    const created = await newOrder();
    fakes.gatewayTwo.complete(created.id);
    await fakes.gatewayTwo.deliverWebhook(created.id, { corrupt: 'signature' });
    await fakes.gatewayTwo.deliverWebhook(created.id, { corrupt: 'stale' });
    await fakes.gatewayTwo.deliverWebhook(created.id);
    const verdicts = receiver.received.map((hook) =>
      client.verifyWebhook({
        rawBody: Buffer.from(hook.body),
        timestampHeader: String(hook.headers['revolut-request-timestamp']),
        signatureHeader: String(hook.headers['revolut-signature']),
      }),
    );
    expect(verdicts).toEqual([undefined, undefined, expect.objectContaining({ event: 'ORDER_COMPLETED' })]);
  });

  it('retries reading an order after server errors, and never retries creating one', async () => {
    const created = await newOrder();
    fakes.gatewayTwo.resetControls();
    fakes.gatewayTwo.failNext(2);
    expect(await client.getOrder(created.id)).toMatchObject({ outcome: 'pending' });
    expect(fakes.gatewayTwo.requests).toHaveLength(3);

    fakes.gatewayTwo.resetControls();
    fakes.gatewayTwo.failNext(1);
    const ref = orderId();
    expect((await failure(newOrder(ref))).kind).toBe('unavailable');
    expect(fakes.gatewayTwo.requests).toHaveLength(1);
    expect(fakes.gatewayTwo.orderFor(ref)).toBeUndefined();
  });

  it('treats a slow or absent gateway as unavailable', async () => {
    const created = await newOrder();
    fakes.gatewayTwo.setLatency(1_000);
    const impatient = client.withSettings({ timeoutMs: 200 });
    expect(await failure(impatient.getOrder(created.id))).toMatchObject({ kind: 'unavailable' });
    fakes.gatewayTwo.resetControls();
    fakes.gatewayTwo.goDown('reset');
    expect((await failure(client.getOrder(created.id))).kind).toBe('unavailable');
    fakes.gatewayTwo.comeUp();
    expect((await client.getOrder(created.id)).id).toBe(created.id);
  });

  it('is refused for an unknown order, and for a wrong secret key without showing it', async () => {
    expect(await failure(client.getOrder('no-such-order'))).toMatchObject({
      kind: 'rejected',
      httpStatus: 404,
    });
    const wrong = client.withSettings({ secretKey: 'sk_wrong_value' });
    const error = await failure(
      wrong.createOrder({ amountCents: 100, currency: 'GBP', description: 'x', reference: orderId() }),
    );
    expect(error).toMatchObject({ kind: 'rejected', httpStatus: 401 });
    expect(error.message).not.toContain('sk_wrong_value');
    expect(error.message).not.toContain(fakes.config.gatewayTwo.secretKey);
  });

  it('refunds part of a completed order, and is refused beyond what was paid', async () => {
    const created = await newOrder();
    fakes.gatewayTwo.complete(created.id);
    expect(await client.refundOrder(created.id, 999, 'sold out')).toMatchObject({
      state: 'completed',
      outcome: 'succeeded',
      amountCents: 999,
      currency: 'GBP',
    });
    expect(await failure(client.refundOrder(created.id, 1001, 'too much'))).toMatchObject({
      kind: 'rejected',
      httpStatus: 422,
    });
  });
});
