import { randomBytes } from 'node:crypto';
import type { Request, Response, Router } from 'express';
import { sameSecretText } from '#app/common/crypto/constant-time.js';
import { majorToMinor } from '#app/common/money.js';
import { FakeGateway, type NextSteps } from '#app/infra/providers/fake-support/fake-gateway.js';
import { classifyResultCode, encryptWebhook } from '#app/infra/providers/gatewayone/gatewayone.rules.js';
import {
  checkCheckoutForm,
  DECLINE_CODE,
  type FakeCheckout,
  integrityOf,
  INVALID_CODE,
  NOT_FOUND_CODE,
  openCheckoutJson,
  paymentJson,
  payUrl,
  refundJson,
  PENDING_CODE,
  result,
  stamp,
  SUCCESS_CODE,
  widgetScript,
} from './fake-gatewayone.wire.js';
import { mountHostedPages } from './fake-gatewayone.pages.js';

export type { FakeCheckout } from './fake-gatewayone.wire.js';
export { DECLINE_CODE, SUCCESS_CODE } from './fake-gatewayone.wire.js';

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const newId = (): string => randomBytes(16).toString('hex');

/** A status and the JSON body that goes with it. */
export interface FakeAnswer {
  status: number;
  body: unknown;
}

export interface FakeGatewayOneOptions {
  /** Where the fake itself is reachable (links in its widget script). */
  baseUrl: string;
  entityId: string;
  accessToken: string;
  webhookKey: string;
  /** Where webhooks go (the app's `/gatewayone/webhook`); none are sent while unset. */
  webhookUrl?: string;
  /** Extra words for the page shown after Pay / Decline when the checkout has no return address. */
  nextSteps?: NextSteps;
}

/**
 * An OPPWA-like gateway speaking the protocol of DESIGN §7 with in-memory state: the tests' loopback
 * server and the `PROVIDERS=sandbox` mount use this same router.
 */
export class FakeGatewayOne extends FakeGateway {
  /** Checkouts by id, with their payment once completed. */
  readonly payments = new Map<string, FakeCheckout>();
  /** The checkout that registered each stored card (MIT charges find it by id, not by a scan). */
  private readonly registrations = new Map<string, FakeCheckout>();
  readonly router: Router;

  constructor(private readonly options: FakeGatewayOneOptions) {
    super();
    const router = this.apiRouter([
      ['post', '/v1/checkouts', (req, res) => this.createCheckout(req, res)],
      ['get', '/v1/checkouts/:id/payment', (req, res) => this.checkoutPayment(req, res)],
      ['get', '/v1/query', (req, res) => this.query(req, res)],
      ['post', '/v1/payments/:id', (req, res) => this.refund(req, res)],
      ['delete', '/scheduling/v1/schedules/:id', (req, res) => this.deleteSchedule(req, res)],
      ['post', '/v1/registrations/:id/payments', (req, res) => this.chargeRegistration(req, res)],
    ]);
    mountHostedPages(router, this, options);
    this.router = router;
  }

  setWebhookUrl(url: string | undefined): void {
    this.options.webhookUrl = url;
  }

  /** Whether payments are announced by webhook (a URL is set). */
  get sendsWebhooks(): boolean {
    return this.options.webhookUrl !== undefined;
  }

  /** Schedules held at the gateway (memberships imported from an earlier system), and those deleted. */
  readonly schedules = new Set<string>();
  readonly deletedSchedules: string[] = [];

  /** Registrations (stored cards) whose charges are declined from now on (an expired or blocked card). */
  readonly declinedRegistrations = new Set<string>();

  /** The merchant-initiated charges made on stored cards, oldest first. */
  registrationCharges(): FakeCheckout[] {
    return [...this.payments.values()].filter((c) => c.registrationCharge);
  }

  /** The checkout opened under our reference, if any (the newest). */
  checkoutFor(merchantTransactionId: string): FakeCheckout | undefined {
    return [...this.payments.values()].filter((c) => c.merchantTransactionId === merchantTransactionId).pop();
  }

  /** The shopper pays (or is declined, or sent to review): the checkout gets a payment and this result. */
  complete(checkoutId: string, resultCode: string = SUCCESS_CODE): FakeCheckout {
    const checkout = this.payments.get(checkoutId);
    if (!checkout) throw new Error(`no checkout ${checkoutId}`);
    if (classifyResultCode(checkout.resultCode) === 'succeeded')
      throw new Error(`checkout ${checkoutId} is already paid`);
    checkout.resultCode = resultCode;
    checkout.paymentId = newId();
    checkout.completedAt = new Date();
    if (checkout.createRegistration && classifyResultCode(resultCode) === 'succeeded') {
      checkout.registrationId = newId();
      this.registrations.set(checkout.registrationId, checkout);
    }
    return checkout;
  }

  /** A card stored by a completed 0.00 check, as if a shopper had registered it (benchmarks seed with it). */
  registerCard(): string {
    const id = `reg-${newId()}`;
    this.payments.set(id, {
      id,
      amount: '0.00',
      currency: 'GBP',
      customParameters: {},
      createRegistration: true,
      paymentType: 'PA',
      createdAt: new Date(),
      resultCode: PENDING_CODE,
      refunds: [],
    });
    return this.complete(id).registrationId as string;
  }

  /** The decrypted webhook body the gateway would send for a completed checkout. */
  webhookEvent(checkoutId: string): Record<string, unknown> {
    const checkout = this.payments.get(checkoutId);
    if (!checkout?.paymentId) throw new Error(`checkout ${checkoutId} has no payment yet`);
    return { type: 'PAYMENT', payload: paymentJson(checkout) };
  }

  /**
   * Sends the checkout's payment event to the webhook URL, encrypted with the webhook key, and answers
   * the receiver's status. `corrupt` changes one part after encryption; `key` encrypts with another key.
   */
  async deliverWebhook(
    checkoutId: string,
    options: { corrupt?: 'body' | 'iv' | 'tag'; key?: string; event?: Record<string, unknown> } = {},
  ): Promise<number> {
    const url = this.options.webhookUrl;
    if (!url) throw new Error('the fake gatewayone has no webhook URL');
    const sealed = encryptWebhook(
      options.event ?? this.webhookEvent(checkoutId),
      options.key ?? this.options.webhookKey,
    );
    const flip = (hex: string): string => `${hex.startsWith('0') ? '1' : '0'}${hex.slice(1)}`;
    if (options.corrupt === 'body') sealed.encryptedBody = flip(sealed.encryptedBody);
    if (options.corrupt === 'iv') sealed.ivHex = flip(sealed.ivHex);
    if (options.corrupt === 'tag') sealed.tagHex = flip(sealed.tagHex);
    return this.post(
      url,
      { 'X-Initialization-Vector': sealed.ivHex, 'X-Authentication-Tag': sealed.tagHex },
      JSON.stringify({ encryptedBody: sealed.encryptedBody }),
    );
  }

  /** Answers 401/403 and returns false unless the bearer token and entity are the configured ones. */
  private authorised(req: Request, res: Response, entityId: unknown): boolean {
    const refusal = this.refusal(req.headers.authorization, entityId);
    if (refusal) res.status(refusal.status).json(refusal.body);
    return !refusal;
  }

  /** The 401 or 403 a request gets unless its bearer token and entity are the configured ones. */
  private refusal(authorization: string | undefined, entityId: unknown): FakeAnswer | undefined {
    if (!sameSecretText(authorization ?? '', `Bearer ${this.options.accessToken}`))
      return { status: 401, body: { result: result('800.900.300') } };
    if (entityId !== this.options.entityId) return { status: 403, body: { result: result('800.900.100') } };
    return undefined;
  }

  /**
   * What a checkout's status read (`GET /v1/checkouts/{id}/payment`) answers: the route's answer, and the
   * lean path's (`fake-gatewayone.lean.ts`).
   */
  paymentRead(id: string, authorization: string | undefined, entityId: unknown): FakeAnswer {
    const refusal = this.refusal(authorization, entityId);
    if (refusal) return refusal;
    const checkout = this.payments.get(id);
    if (!checkout)
      return {
        status: 404,
        body: {
          result: { code: INVALID_CODE, description: 'No payment session found for the requested id' },
        },
      };
    if (!checkout.paymentId)
      return { status: 200, body: { result: result(PENDING_CODE), ndc: checkout.id, timestamp: stamp() } };
    // Like the real gateway, a payment that did not succeed is answered with 400 and its result.
    const outcome = classifyResultCode(checkout.resultCode);
    return { status: outcome === 'failed' ? 400 : 200, body: paymentJson(checkout) };
  }

  private async createCheckout(req: Request, res: Response): Promise<void> {
    const body = (req.body ?? {}) as Record<string, string | undefined>;
    if (!this.authorised(req, res, body.entityId)) return;
    const { problems, customParameters } = checkCheckoutForm(body);
    if (problems.length) {
      await this.reply(res, 400, {
        result: {
          ...result(INVALID_CODE),
          parameterErrors: problems.map((name) => ({ name, value: body[name] })),
        },
      });
      return;
    }
    const checkout: FakeCheckout = {
      id: randomBytes(16).toString('hex').toUpperCase(),
      amount: body.amount ?? '',
      currency: body.currency ?? '',
      merchantTransactionId: body.merchantTransactionId,
      customParameters,
      shopperResultUrl: body.shopperResultUrl,
      createRegistration: body.createRegistration === 'true',
      paymentType: body.paymentType,
      createdAt: new Date(),
      resultCode: PENDING_CODE,
      refunds: [],
    };
    this.payments.set(checkout.id, checkout);
    await this.reply(res, 200, {
      result: result('000.200.100'),
      buildNumber: 'sandbox',
      timestamp: stamp(),
      ndc: checkout.id,
      id: checkout.id,
      ...(body.integrity === 'true'
        ? { integrity: integrityOf(widgetScript(payUrl(this.options.baseUrl, checkout.id))) }
        : {}),
    });
  }

  private async checkoutPayment(req: Request, res: Response): Promise<void> {
    const { status, body } = this.paymentRead(
      String(req.params.id),
      req.headers.authorization,
      req.query.entityId,
    );
    // A refusal answers at once, as `authorised` does on the other routes; the rest after any latency.
    if (status === 401 || status === 403) res.status(status).json(body);
    else await this.reply(res, status, body);
  }

  private async query(req: Request, res: Response): Promise<void> {
    if (!this.authorised(req, res, req.query.entityId)) return;
    const reference = text(req.query.merchantTransactionId);
    // Unlike the real gateway (payments only), unpaid checkouts are listed too: a creation whose answer was
    // lost can then be found by our reference.
    const found = [...this.payments.values()].filter((c) => c.merchantTransactionId === reference);
    // Refunds are transactions of their own, found under the reference they were sent with.
    const refunds = [...this.payments.values()].flatMap((c) =>
      c.refunds.filter((r) => r.merchantTransactionId === reference).map((r) => refundJson(c, r)),
    );
    if (!found.length && !refunds.length) {
      await this.reply(res, 200, { result: result(NOT_FOUND_CODE), payments: [] });
      return;
    }
    await this.reply(res, 200, {
      result: result('000.000.100'),
      payments: [...found.map((c) => (c.paymentId ? paymentJson(c) : openCheckoutJson(c))), ...refunds],
    });
  }

  private async refund(req: Request, res: Response): Promise<void> {
    const body = (req.body ?? {}) as Record<string, string | undefined>;
    if (!this.authorised(req, res, body.entityId)) return;
    const checkout = [...this.payments.values()].find((c) => c.paymentId === req.params.id);
    if (!checkout || body.paymentType !== 'RF') {
      await this.reply(res, 400, { result: result(checkout ? INVALID_CODE : NOT_FOUND_CODE) });
      return;
    }
    const refunded = checkout.refunds.reduce((sum, r) => sum + majorToMinor(r.amount, checkout.currency), 0);
    const paid = majorToMinor(checkout.amount, checkout.currency);
    let minor = -1;
    try {
      minor = majorToMinor(body.amount ?? '', checkout.currency);
    } catch {
      // refused below
    }
    const refundable =
      classifyResultCode(checkout.resultCode) === 'succeeded' &&
      body.currency === checkout.currency &&
      minor > 0 &&
      refunded + minor <= paid;
    const code = refundable ? SUCCESS_CODE : '700.400.200';
    const refund = {
      id: newId(),
      amount: body.amount ?? '',
      resultCode: code,
      merchantTransactionId: body.merchantTransactionId,
    };
    if (refundable) checkout.refunds.push(refund);
    await this.reply(res, refundable ? 200 : 400, {
      id: refund.id,
      paymentType: 'RF',
      referencedId: checkout.paymentId,
      amount: refund.amount,
      currency: body.currency,
      result: result(code),
      timestamp: stamp(),
    });
  }

  /**
   * A merchant-initiated charge of a stored card. The charge is made before the answer is sent, so a
   * latency above the client's timeout is a lost answer: the payment exists under our reference.
   */
  private async chargeRegistration(req: Request, res: Response): Promise<void> {
    const body = (req.body ?? {}) as Record<string, string | undefined>;
    if (!this.authorised(req, res, body.entityId)) return;
    const registrationId = String(req.params.id);
    const stored = this.registrations.get(registrationId);
    const { problems } = checkCheckoutForm({ ...body, paymentType: body.paymentType });
    if (!stored || problems.length || body['standingInstruction.source'] !== 'MIT') {
      await this.reply(res, 400, {
        result: stored
          ? { ...result(INVALID_CODE), parameterErrors: problems.map((name) => ({ name })) }
          : result(NOT_FOUND_CODE),
      });
      return;
    }
    const declined = this.declinedRegistrations.has(registrationId);
    const charge: FakeCheckout = {
      id: `mit-${newId()}`,
      amount: body.amount ?? '',
      currency: body.currency ?? '',
      merchantTransactionId: body.merchantTransactionId,
      customParameters: {},
      createRegistration: false,
      paymentType: 'DB',
      registrationCharge: true,
      createdAt: new Date(),
      resultCode: declined ? DECLINE_CODE : SUCCESS_CODE,
      paymentId: newId(),
      registrationId,
      completedAt: new Date(),
      refunds: [],
    };
    this.payments.set(charge.id, charge);
    await this.reply(res, declined ? 400 : 200, paymentJson(charge));
  }

  private async deleteSchedule(req: Request, res: Response): Promise<void> {
    if (!this.authorised(req, res, req.query.entityId)) return;
    const id = String(req.params.id);
    if (!this.schedules.delete(id)) {
      await this.reply(res, 404, { result: result(NOT_FOUND_CODE) });
      return;
    }
    this.deletedSchedules.push(id);
    await this.reply(res, 200, { id, result: result('000.000.100') });
  }
}
