import { Inject, Injectable } from '@nestjs/common';
import { normalizeCurrency } from '#app/common/money.js';
import { AppConfig } from '#app/config/app-config.js';
import { ProviderError } from '#app/infra/providers/provider-error.js';
import { ProviderHttp, type ProviderResponse } from '#app/infra/providers/provider-http.js';
import { mapOrderState, parseWebhookEvent, verifyWebhookSignature } from './gatewaytwo.rules.js';
import type {
  CreateOrderInput,
  GatewayTwoOrder,
  GatewayTwoRefund,
  GatewayTwoSettings,
  GatewayTwoWebhookEvent,
  OrderCreated,
} from './gatewaytwo.types.js';

const PROVIDER = 'gatewaytwo';
/** The API version the order endpoints are written against. */
export const GATEWAYTWO_API_VERSION = '2024-09-01';

type Json = Record<string, unknown>;

/** Refused before anything is sent: the gateway takes positive whole minor units. */
function assertPositiveMinor(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount <= 0)
    throw new RangeError(`${String(amount)} is not a positive whole number of minor units`);
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * The order-based gateway (Revolut-like, DESIGN §7). Amounts are minor units on both sides. Reads are
 * retried; creating an order and refunding are sent once (a lost answer throws `unavailable`).
 */
@Injectable()
export class GatewayTwoClient {
  private readonly settings: GatewayTwoSettings | undefined;
  private readonly http: ProviderHttp | undefined;

  constructor(@Inject(AppConfig) config: Pick<AppConfig, 'gatewayTwo'>) {
    this.settings = config.gatewayTwo;
    this.http = this.settings
      ? new ProviderHttp({
          provider: PROVIDER,
          baseUrl: this.settings.baseUrl,
          timeoutMs: this.settings.timeoutMs,
          headers: {
            Authorization: `Bearer ${this.settings.secretKey}`,
            'Revolut-Api-Version': GATEWAYTWO_API_VERSION,
          },
          secrets: [this.settings.secretKey, this.settings.webhookSecret],
        })
      : undefined;
  }

  /** The same client with other credentials (a site's own, DESIGN §7). */
  withSettings(overrides: Partial<GatewayTwoSettings>): GatewayTwoClient {
    return new GatewayTwoClient({ gatewayTwo: { ...this.require().settings, ...overrides } });
  }

  get configured(): boolean {
    return this.settings !== undefined;
  }

  /** `POST /api/orders`, sent once. */
  async createOrder(input: CreateOrderInput): Promise<OrderCreated> {
    const { http } = this.require();
    assertPositiveMinor(input.amountCents);
    const res = await http.send({
      method: 'POST',
      path: '/api/orders',
      json: {
        amount: input.amountCents,
        currency: normalizeCurrency(input.currency),
        description: input.description,
        merchant_order_data: { reference: input.reference },
        ...(input.redirectUrl ? { redirect_url: input.redirectUrl } : {}),
        ...(input.customerEmail ? { customer: { email: input.customerEmail } } : {}),
      },
    });
    if (res.status >= 300) throw this.failure(http, 'POST /api/orders', res);
    const body = res.body ?? {};
    const [id, token, state, checkoutUrl] = [body.id, body.token, body.state, body.checkout_url].map(str);
    if (!id || !token || !state || !checkoutUrl)
      throw http.error('unavailable', `${PROVIDER} POST /api/orders: unreadable answer`, res.status);
    return { id, token, state, checkoutUrl, raw: body };
  }

  /** `GET /api/orders/{id}`. Retried. */
  async getOrder(orderId: string): Promise<GatewayTwoOrder> {
    const { http } = this.require();
    const what = `GET /api/orders/${orderId}`;
    const res = await http.send({
      method: 'GET',
      path: `/api/orders/${encodeURIComponent(orderId)}`,
      retry: true,
    });
    if (res.status >= 300) throw this.failure(http, what, res);
    const order = this.toOrder(http, what, res.body);
    const data = res.body?.merchant_order_data as Json | undefined;
    return { ...order, reference: str(data?.reference) ?? str(res.body?.merchant_order_ext_ref) };
  }

  /** `POST /api/orders/{id}/refund`, sent once: the refund, itself an order at the gateway. */
  async refundOrder(orderId: string, amountCents: number, description: string): Promise<GatewayTwoRefund> {
    const { http } = this.require();
    assertPositiveMinor(amountCents);
    const what = `POST /api/orders/${orderId}/refund`;
    const res = await http.send({
      method: 'POST',
      path: `/api/orders/${encodeURIComponent(orderId)}/refund`,
      json: { amount: amountCents, description },
    });
    if (res.status >= 300) throw this.failure(http, what, res);
    return this.toOrder(http, what, res.body);
  }

  /**
   * Checks the signature of a webhook with the configured secret and reads its body; `undefined` means
   * refuse it (401) and change nothing. Confirm the order by `getOrder` before acting on it.
   */
  verifyWebhook(input: {
    rawBody: Buffer;
    timestampHeader: string | undefined;
    signatureHeader: string | undefined;
    now?: Date | number;
  }): GatewayTwoWebhookEvent | undefined {
    const { settings } = this.require();
    const verdict = verifyWebhookSignature({
      ...input,
      secret: settings.webhookSecret,
      now: input.now ?? new Date(),
    });
    if (!verdict.valid) return undefined;
    try {
      return parseWebhookEvent(JSON.parse(input.rawBody.toString('utf8')));
    } catch {
      return undefined;
    }
  }

  private toOrder(http: ProviderHttp, what: string, body: Json | undefined): GatewayTwoOrder {
    const id = str(body?.id);
    const state = str(body?.state);
    const currency = str(body?.currency)?.toUpperCase();
    const amount = body?.amount;
    if (!body || !id || !state || !currency || typeof amount !== 'number' || !Number.isSafeInteger(amount))
      throw http.error('unavailable', `${PROVIDER} ${what}: unreadable answer`);
    const refunded = body.refunded_amount;
    return {
      id,
      state,
      amountCents: amount,
      currency,
      refundedCents: typeof refunded === 'number' && Number.isSafeInteger(refunded) ? refunded : undefined,
      outcome: mapOrderState(state),
      raw: body,
    };
  }

  private failure(http: ProviderHttp, what: string, res: ProviderResponse): ProviderError {
    const rawCode = res.body?.code;
    const code = typeof rawCode === 'number' ? String(rawCode) : str(rawCode);
    const message = str(res.body?.message);
    const detail = code || message ? ` (${[code, message].filter(Boolean).join(': ')})` : '';
    if (res.status < 400)
      return http.error('unavailable', `${PROVIDER} ${what} answered ${res.status}${detail}`, res.status);
    return http.error(
      'rejected',
      `${PROVIDER} refused ${what} with ${res.status}${detail}`,
      res.status,
      code,
    );
  }

  private require(): { settings: GatewayTwoSettings; http: ProviderHttp } {
    if (!this.settings || !this.http)
      throw new ProviderError(PROVIDER, 'unavailable', `${PROVIDER} is not configured`);
    return { settings: this.settings, http: this.http };
  }
}
