import { randomBytes, randomUUID } from 'node:crypto';
import type { Request, Response, Router } from 'express';
import {
  escapeHtml,
  FakeGateway,
  handle,
  type NextSteps,
  page,
} from '#app/infra/providers/fake-support/fake-gateway.js';
import { sameSecretText } from '#app/common/crypto/constant-time.js';
import { signWebhook, SIGNATURE_TOLERANCE_MS } from '#app/infra/providers/gatewaytwo/gatewaytwo.rules.js';
import type { GatewayTwoOrderState } from '#app/infra/providers/gatewaytwo/gatewaytwo.types.js';
import { type FakeOrder, orderJson, payPageHtml } from './fake-gatewaytwo.wire.js';

export type { FakeOrder } from './fake-gatewaytwo.wire.js';

export interface FakeGatewayTwoOptions {
  /** Where the fake itself is reachable (its orders' `checkout_url`). */
  baseUrl: string;
  secretKey: string;
  webhookSecret: string;
  /** Where webhooks go (the app's `/gatewaytwo/webhook`); none are sent while unset. */
  webhookUrl?: string;
  /** Extra words for the page shown after Pay / Decline / Cancel when the order has no return address. */
  nextSteps?: NextSteps;
}

const EVENTS: Partial<Record<GatewayTwoOrderState, string>> = {
  authorised: 'ORDER_AUTHORISED',
  completed: 'ORDER_COMPLETED',
  cancelled: 'ORDER_CANCELLED',
  failed: 'ORDER_PAYMENT_FAILED',
};

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * A Revolut-like order gateway speaking the protocol of DESIGN §7 with in-memory state: the tests'
 * loopback server and the `PROVIDERS=sandbox` mount use this same router.
 */
export class FakeGatewayTwo extends FakeGateway {
  /** Orders (and refunds) by id. */
  readonly orders = new Map<string, FakeOrder>();
  readonly router: Router;

  constructor(private readonly options: FakeGatewayTwoOptions) {
    super();
    const router = this.apiRouter([
      ['post', '/api/orders', (req, res) => this.createOrder(req, res)],
      ['get', '/api/orders/:id', (req, res) => this.getOrder(req, res)],
      ['post', '/api/orders/:id/refund', (req, res) => this.refund(req, res)],
    ]);
    router.get('/pay/:id', (req, res) => this.payPage(req, res));
    router.post(
      '/pay/:id',
      handle((req, res) => this.payDecision(req, res)),
    );

    this.router = router;
  }

  setWebhookUrl(url: string | undefined): void {
    this.options.webhookUrl = url;
  }

  /** The order created under our reference, if any (the newest). */
  orderFor(reference: string): FakeOrder | undefined {
    return [...this.orders.values()].filter((o) => o.reference === reference).pop();
  }

  /** The customer pays (or the order fails, is cancelled, or is only authorised). */
  complete(orderId: string, state: GatewayTwoOrderState = 'completed'): FakeOrder {
    const order = this.orders.get(orderId);
    if (!order) throw new Error(`no order ${orderId}`);
    if (order.state === 'completed') throw new Error(`order ${orderId} is already completed`);
    order.state = state;
    order.updatedAt = new Date();
    return order;
  }

  /**
   * Sends the order's event (by its state unless `event` is given), signed with the webhook secret, and
   * answers the receiver's status. `corrupt: 'signature'` signs with another secret; `'stale'` signs a
   * timestamp older than the tolerance.
   */
  async deliverWebhook(
    orderId: string,
    options: { event?: string; corrupt?: 'signature' | 'stale'; secret?: string } = {},
  ): Promise<number> {
    const url = this.options.webhookUrl;
    if (!url) throw new Error('the fake gatewaytwo has no webhook URL');
    const order = this.orders.get(orderId);
    if (!order) throw new Error(`no order ${orderId}`);
    const body = JSON.stringify({
      event: options.event ?? EVENTS[order.state] ?? 'ORDER_UPDATED',
      order_id: order.id,
      merchant_order_ext_ref: order.reference,
    });
    const at = Date.now() - (options.corrupt === 'stale' ? SIGNATURE_TOLERANCE_MS + 60_000 : 0);
    const secret =
      options.corrupt === 'signature' ? 'wsk_not_the_secret' : (options.secret ?? this.options.webhookSecret);
    const timestamp = String(at);
    return this.post(
      url,
      {
        'Revolut-Request-Timestamp': timestamp,
        'Revolut-Signature': signWebhook({ rawBody: body, timestamp, secret }),
      },
      body,
    );
  }

  private authorised(req: Request, res: Response): boolean {
    if (sameSecretText(req.headers.authorization ?? '', `Bearer ${this.options.secretKey}`)) return true;
    res.status(401).json({ code: 'unauthenticated', message: 'Authentication failed' });
    return false;
  }

  private async createOrder(req: Request, res: Response): Promise<void> {
    if (!this.authorised(req, res)) return;
    const body = (req.body ?? {}) as Record<string, unknown>;
    const { amount, currency } = body;
    const data = body.merchant_order_data as Record<string, unknown> | undefined;
    const customer = body.customer as Record<string, unknown> | undefined;
    const problems = [
      typeof amount === 'number' && Number.isSafeInteger(amount) && amount > 0 ? undefined : 'amount',
      typeof currency === 'string' && /^[A-Z]{3}$/.test(currency) ? undefined : 'currency',
    ].filter(Boolean);
    if (problems.length) {
      await this.reply(res, 400, { code: 'validation', message: `invalid ${problems.join(', ')}` });
      return;
    }
    const now = new Date();
    const order: FakeOrder = {
      id: randomUUID(),
      token: randomUUID(),
      state: 'pending',
      amount: amount as number,
      currency: currency as string,
      description: text(body.description),
      reference: text(data?.reference),
      redirectUrl: text(body.redirect_url),
      customerEmail: text(customer?.email),
      createdAt: now,
      updatedAt: now,
      refunds: [],
    };
    this.orders.set(order.id, order);
    await this.reply(res, 201, orderJson(order, this.options.baseUrl));
  }

  private async getOrder(req: Request, res: Response): Promise<void> {
    if (!this.authorised(req, res)) return;
    const order = this.orders.get(String(req.params.id));
    if (!order) {
      await this.reply(res, 404, { code: 'not_found', message: 'Order not found' });
      return;
    }
    await this.reply(res, 200, orderJson(order, this.options.baseUrl));
  }

  private async refund(req: Request, res: Response): Promise<void> {
    if (!this.authorised(req, res)) return;
    const order = this.orders.get(String(req.params.id));
    if (!order) {
      await this.reply(res, 404, { code: 'not_found', message: 'Order not found' });
      return;
    }
    const body = (req.body ?? {}) as Record<string, unknown>;
    const amount = body.amount;
    const refunded = order.refunds.reduce((sum, r) => sum + r.amount, 0);
    if (
      order.state !== 'completed' ||
      typeof amount !== 'number' ||
      !Number.isSafeInteger(amount) ||
      amount <= 0 ||
      refunded + amount > order.amount
    ) {
      await this.reply(res, 422, {
        code: 'refund_not_allowed',
        message: 'The order cannot be refunded by this amount',
      });
      return;
    }
    const refund = { id: randomUUID(), amount, description: text(body.description) };
    order.refunds.push(refund);
    await this.reply(res, 201, {
      id: refund.id,
      token: randomBytes(16).toString('hex'),
      type: 'refund',
      state: 'completed',
      amount,
      currency: order.currency,
      description: refund.description,
      related_order_id: order.id,
      created_at: new Date().toISOString(),
    });
  }

  private payPage(req: Request, res: Response): void {
    const order = this.orders.get(String(req.params.id));
    if (!order) {
      res.status(404).type('html').send(page('Unknown order', '<h1>Unknown order</h1>'));
      return;
    }
    const action = `${req.baseUrl}/pay/${encodeURIComponent(order.id)}`;
    res.type('html').send(payPageHtml(order, action));
  }

  private async payDecision(req: Request, res: Response): Promise<void> {
    const order = this.orders.get(String(req.params.id));
    if (order?.state !== 'pending') {
      res.status(409).type('html').send(page('Not payable', '<h1>This order cannot be paid</h1>'));
      return;
    }
    const decision = (req.body as Record<string, unknown> | undefined)?.decision;
    const after = this.complete(
      order.id,
      decision === 'pay' ? 'completed' : decision === 'cancel' ? 'cancelled' : 'failed',
    );
    if (this.options.webhookUrl) await this.deliverWebhook(order.id).catch(() => 0);
    if (order.redirectUrl) {
      res.redirect(303, order.redirectUrl);
      return;
    }
    res.type('html').send(
      page(
        'gatewaytwo sandbox payment',
        `<h1>The order is ${escapeHtml(after.state)}.</h1>${
          this.options.nextSteps?.({
            reference: after.reference,
            siteId: undefined,
            paid: after.state === 'completed',
            state: after.state,
          }) ?? ''
        }`,
      ),
    );
  }
}
