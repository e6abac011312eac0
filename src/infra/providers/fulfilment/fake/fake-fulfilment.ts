import { randomUUID } from 'node:crypto';
import type { Request, Response, Router } from 'express';
import { sameSecretText } from '#app/common/crypto/constant-time.js';
import { FakeGateway } from '#app/infra/providers/fake-support/fake-gateway.js';

export interface FakeFulfilmentOrder {
  id: string;
  idempotencyKey: string;
  merchantReference: string;
  callbackUrl: string;
  stage: 'InProgress' | 'Complete' | 'Cancelled';
  shipments: Array<Record<string, unknown>>;
  charges: Array<Record<string, unknown>>;
  /** What was sent to create it. */
  request: Record<string, unknown>;
  created: Date;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * A print-on-demand provider speaking the Prodigi v4-like protocol of DESIGN §7 with in-memory state:
 * orders created once per `idempotencyKey` (a repeat answers `AlreadyExists` with the same order),
 * read back by id, and CloudEvents callbacks sent to each order's `callbackUrl` on demand.
 */
export class FakeFulfilment extends FakeGateway {
  readonly orders = new Map<string, FakeFulfilmentOrder>();
  /** Orders created (not repeats), oldest first: what was really made and shipped. */
  readonly created: FakeFulfilmentOrder[] = [];
  readonly router: Router;

  constructor(private readonly options: { apiKey: string }) {
    super();
    this.router = this.apiRouter([
      ['post', '/v4.0/Orders', (req, res) => this.createOrder(req, res)],
      ['get', '/v4.0/Orders/:id', (req, res) => this.getOrder(req, res)],
    ]);
  }

  /** The provider moves an order on (and ships or charges it), without telling anyone yet. */
  setStage(id: string, stage: FakeFulfilmentOrder['stage']): void {
    const order = this.mustGet(id);
    order.stage = stage;
    if (stage === 'Complete' && order.shipments.length === 0)
      order.shipments.push({
        id: `shp_${randomUUID().slice(0, 8)}`,
        carrier: { name: 'Royal Mail', service: 'Tracked 48' },
        tracking: { number: 'RM123456789GB', url: 'https://track.example.com/RM123456789GB' },
        dispatchDate: new Date().toISOString(),
      });
  }

  /** Sends a CloudEvents callback for an order (its `data.order` may be made to lie with `stage`). */
  async sendCallback(id: string, stage?: string): Promise<number> {
    const order = this.mustGet(id);
    const event = {
      specversion: '1.0',
      type: 'com.prodigi.order.status.stage.changed#' + (stage ?? order.stage),
      source: 'http://api.prodigi.com/v4.0/Orders/',
      id: `evt_${randomUUID()}`,
      time: new Date().toISOString(),
      datacontenttype: 'application/json',
      subject: order.id,
      data: { order: { ...this.json(order), status: { stage: stage ?? order.stage } } },
    };
    return this.post(
      order.callbackUrl,
      { 'Content-Type': 'application/cloudevents+json' },
      JSON.stringify(event),
    );
  }

  byReference(reference: string): FakeFulfilmentOrder | undefined {
    return [...this.orders.values()].find((o) => o.merchantReference === reference);
  }

  private mustGet(id: string): FakeFulfilmentOrder {
    const order = this.orders.get(id);
    if (!order) throw new Error(`no fulfilment order ${id}`);
    return order;
  }

  private authorised(req: Request, res: Response): boolean {
    const key = req.headers['x-api-key'];
    if (typeof key === 'string' && sameSecretText(key, this.options.apiKey)) return true;
    res.status(401).json({ outcome: 'NotAuthenticated' });
    return false;
  }

  private json(order: FakeFulfilmentOrder): Record<string, unknown> {
    const request = order.request;
    return {
      id: order.id,
      created: order.created.toISOString(),
      merchantReference: order.merchantReference,
      idempotencyKey: order.idempotencyKey,
      callbackUrl: order.callbackUrl,
      shippingMethod: request.shippingMethod,
      status: { stage: order.stage, issues: [], details: {} },
      charges: order.charges,
      shipments: order.shipments,
      recipient: request.recipient,
      items: request.items,
    };
  }

  private async createOrder(req: Request, res: Response): Promise<void> {
    if (!this.authorised(req, res)) return;
    const body = (req.body ?? {}) as Record<string, unknown>;
    const idempotencyKey = text(body.idempotencyKey);
    const callbackUrl = text(body.callbackUrl);
    const merchantReference = text(body.merchantReference);
    if (!idempotencyKey || !callbackUrl || !merchantReference || !Array.isArray(body.items)) {
      await this.reply(res, 400, { outcome: 'ValidationFailed' });
      return;
    }
    const existing = [...this.orders.values()].find((o) => o.idempotencyKey === idempotencyKey);
    if (existing) {
      await this.reply(res, 200, { outcome: 'AlreadyExists', order: this.json(existing) });
      return;
    }
    const copies = (body.items as Array<{ copies?: number }>).reduce((n, i) => n + (i.copies ?? 1), 0);
    const order: FakeFulfilmentOrder = {
      id: `ord_${randomUUID().replace(/-/g, '').slice(0, 12)}`,
      idempotencyKey,
      merchantReference,
      callbackUrl,
      stage: 'InProgress',
      shipments: [],
      charges: [
        {
          id: `chg_${randomUUID().slice(0, 8)}`,
          totalCost: { amount: (copies * 4.5).toFixed(2), currency: 'GBP' },
          items: [],
        },
      ],
      request: body,
      created: new Date(),
    };
    this.orders.set(order.id, order);
    this.created.push(order);
    await this.reply(res, 200, { outcome: 'Created', order: this.json(order) });
  }

  private async getOrder(req: Request, res: Response): Promise<void> {
    if (!this.authorised(req, res)) return;
    const order = this.orders.get(String(req.params.id));
    if (!order) {
      await this.reply(res, 404, { outcome: 'NotFound' });
      return;
    }
    await this.reply(res, 200, { outcome: 'Ok', order: this.json(order) });
  }
}
