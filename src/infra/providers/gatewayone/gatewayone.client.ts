import { Inject, Injectable } from '@nestjs/common';
import { majorToMinor, MoneyError, minorToMajorString, normalizeCurrency } from '#app/common/money.js';
import { AppConfig } from '#app/config/app-config.js';
import { ProviderError } from '#app/infra/providers/provider-error.js';
import { ProviderHttp, type ProviderResponse } from '#app/infra/providers/provider-http.js';
import { classifyResultCode, decryptWebhook, parseWebhookEvent } from './gatewayone.rules.js';
import type {
  CheckoutCreated,
  CreateCheckoutInput,
  EncryptedWebhook,
  GatewayOnePayment,
  GatewayOneRefund,
  GatewayOneSettings,
  GatewayOneWebhookEvent,
} from './gatewayone.types.js';

const PROVIDER = 'gatewayone';
/** "cannot find transaction": the answer to a lookup that found nothing. */
const NOT_FOUND_CODE = '700.400.580';

type Json = Record<string, unknown>;

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const resultOf = (body: Json | undefined): { code?: string; description: string } => {
  const result = body?.result as Json | undefined;
  return { code: str(result?.code), description: str(result?.description) ?? '' };
};

/**
 * The hosted-payment-form gateway (OPPWA-like, DESIGN §7). Only reads are retried; a checkout or a refund
 * is sent once, and `createCheckoutOnce` looks the order up by our reference before (and after a lost
 * answer to) a creation, so a retry never opens a second checkout the gateway already has.
 */
@Injectable()
export class GatewayOneClient {
  private readonly settings: GatewayOneSettings | undefined;
  private readonly http: ProviderHttp | undefined;

  constructor(@Inject(AppConfig) config: Pick<AppConfig, 'gatewayOne'>) {
    this.settings = config.gatewayOne;
    this.http = this.settings
      ? new ProviderHttp({
          provider: PROVIDER,
          baseUrl: this.settings.baseUrl,
          timeoutMs: this.settings.timeoutMs,
          headers: { Authorization: `Bearer ${this.settings.accessToken}` },
          secrets: [this.settings.accessToken, this.settings.webhookKey],
        })
      : undefined;
  }

  /** The same client with other credentials (a site's own, DESIGN §7). */
  withSettings(overrides: Partial<GatewayOneSettings>): GatewayOneClient {
    return new GatewayOneClient({ gatewayOne: { ...this.require().settings, ...overrides } });
  }

  get configured(): boolean {
    return this.settings !== undefined;
  }

  /** The payment widget script a front end loads for a checkout (it renders the hosted form). */
  widgetScriptUrl(checkoutId: string): string {
    const { settings } = this.require();
    return `${settings.baseUrl.replace(/\/+$/, '')}/v1/paymentWidgets.js?checkoutId=${encodeURIComponent(checkoutId)}`;
  }

  /** `POST /v1/checkouts`, sent exactly once: a lost answer throws `unavailable` (see `createCheckoutOnce`). */
  async createCheckout(input: CreateCheckoutInput, deadline?: number): Promise<CheckoutCreated> {
    const { settings, http } = this.require();
    const form: Record<string, string> = {
      entityId: settings.entityId,
      amount: minorToMajorString(input.amountCents, input.currency),
      currency: normalizeCurrency(input.currency),
      paymentType: input.paymentType ?? 'DB',
      merchantTransactionId: input.merchantTransactionId,
    };
    for (const [key, value] of Object.entries(input.customParameters ?? {}))
      form[`customParameters[${key}]`] = value;
    if (input.integrity) form.integrity = 'true';
    if (input.shopperResultUrl) form.shopperResultUrl = input.shopperResultUrl;
    if (input.createRegistration) form.createRegistration = 'true';
    const res = await http.send({ method: 'POST', path: '/v1/checkouts', form, deadline });
    const { code, description } = resultOf(res.body);
    const id = str(res.body?.id);
    if (res.status >= 400) throw this.rejected(http, 'POST /v1/checkouts', res, code, description);
    if (!id || !code) throw http.error('unavailable', `${PROVIDER} POST /v1/checkouts: unreadable answer`);
    return { id, resultCode: code, integrity: str(res.body?.integrity), raw: res.body ?? {} };
  }

  /**
   * Opens a checkout for an order unless the gateway already holds a usable one under its reference
   * (same amount and currency, not failed): safe to call again after any failure. Its look-ups and the
   * creation share one timeout, so a hung gateway holds the shopper's request for one timeout at most.
   */
  async createCheckoutOnce(input: CreateCheckoutInput): Promise<CheckoutCreated & { reused: boolean }> {
    const deadline = this.require().http.deadline();
    const existing = await this.findReusableCheckout(input, deadline);
    if (existing) return existing;
    try {
      return { ...(await this.createCheckout(input, deadline)), reused: false };
    } catch (error) {
      if (!(error instanceof ProviderError) || error.kind !== 'unavailable') throw error;
      // The gateway may have created it and lost the answer.
      const created = await this.findReusableCheckout(input, deadline).catch(() => undefined);
      if (created) return created;
      throw error;
    }
  }

  /** `GET /v1/checkouts/{id}/payment`: the checkout's payment, or its pending state. Retried. */
  async getCheckoutPayment(checkoutId: string): Promise<GatewayOnePayment> {
    const { settings, http } = this.require();
    const path = `/v1/checkouts/${encodeURIComponent(checkoutId)}/payment`;
    const res = await http.send({ method: 'GET', path, query: { entityId: settings.entityId }, retry: true });
    const { code, description } = resultOf(res.body);
    // A declined or expired payment is answered with 400 and its result: that is an answer, not an error.
    if (!res.body || !code || ![200, 400, 404].includes(res.status))
      throw this.rejected(http, `GET ${path}`, res, code, description);
    const payment = this.toPayment(http, res.body);
    return { ...payment, checkoutId: payment.checkoutId ?? checkoutId };
  }

  /** `GET /v1/query?merchantTransactionId=`: what the gateway holds under our reference (maybe nothing). Retried. */
  async findByMerchantTransactionId(reference: string, deadline?: number): Promise<GatewayOnePayment[]> {
    const { settings, http } = this.require();
    const res = await http.send({
      method: 'GET',
      path: '/v1/query',
      query: { entityId: settings.entityId, merchantTransactionId: reference },
      retry: true,
      deadline,
    });
    const { code, description } = resultOf(res.body);
    if (code === NOT_FOUND_CODE && [200, 400, 404].includes(res.status)) return [];
    const payments = res.body?.payments;
    if (res.status !== 200 || !Array.isArray(payments))
      throw this.rejected(http, 'GET /v1/query', res, code, description);
    return payments.map((p) => this.toPayment(http, p as Json));
  }

  /** What the refunds sent under `reference` gave back in all, in minor units (`GET /v1/query`). Retried. */
  async refundedUnder(reference: string): Promise<number> {
    const refunds = (await this.findByMerchantTransactionId(reference)).filter(
      (t) => t.paymentType === 'RF' && t.outcome === 'succeeded',
    );
    if (refunds.some((t) => t.amountCents === undefined))
      throw this.require().http.error('unavailable', `${PROVIDER} listed a refund without its amount`);
    return refunds.reduce((sum, t) => sum + (t.amountCents as number), 0);
  }

  /**
   * A merchant-initiated charge of a stored card (`POST /v1/registrations/{id}/payments`, DESIGN §7
   * "Recurring"), sent once: a lost answer throws `unavailable`, and the caller settles it by looking
   * the payment up by `merchantTransactionId` — never by charging again. A declined charge is an answer.
   */
  async chargeRegistration(
    registrationId: string,
    input: { amountCents: number; currency: string; merchantTransactionId: string },
  ): Promise<GatewayOnePayment> {
    const { settings, http } = this.require();
    const path = `/v1/registrations/${encodeURIComponent(registrationId)}/payments`;
    const res = await http.send({
      method: 'POST',
      path,
      form: {
        entityId: settings.entityId,
        amount: minorToMajorString(input.amountCents, input.currency),
        currency: normalizeCurrency(input.currency),
        paymentType: 'DB',
        merchantTransactionId: input.merchantTransactionId,
        'standingInstruction.mode': 'REPEATED',
        'standingInstruction.type': 'UNSCHEDULED',
        'standingInstruction.source': 'MIT',
      },
    });
    const { code, description } = resultOf(res.body);
    if (!res.body || !code || ![200, 400].includes(res.status))
      throw this.rejected(http, `POST ${path}`, res, code, description);
    return this.toPayment(http, res.body);
  }

  /**
   * `DELETE /scheduling/v1/schedules/{id}`: stops a schedule held at the gateway (memberships imported
   * with one). A schedule the gateway does not know counts as deleted.
   */
  async deleteSchedule(scheduleId: string): Promise<void> {
    const { settings, http } = this.require();
    const path = `/scheduling/v1/schedules/${encodeURIComponent(scheduleId)}`;
    const res = await http.send({
      method: 'DELETE',
      path,
      query: { entityId: settings.entityId },
      retry: true,
    });
    const { code, description } = resultOf(res.body);
    if (res.status === 200 || res.status === 404) return;
    throw this.rejected(http, `DELETE ${path}`, res, code, description);
  }

  /**
   * `POST /v1/payments/{id}` with `paymentType=RF`, sent once, under our `reference` for the payment's
   * refunds (so a lost answer can be looked up: `refundedUnder`). A declined refund is an answer (`outcome`).
   */
  async refund(
    paymentId: string,
    amountCents: number,
    currency: string,
    reference: string,
  ): Promise<GatewayOneRefund> {
    const { settings, http } = this.require();
    const path = `/v1/payments/${encodeURIComponent(paymentId)}`;
    const res = await http.send({
      method: 'POST',
      path,
      form: {
        entityId: settings.entityId,
        amount: minorToMajorString(amountCents, currency),
        currency: normalizeCurrency(currency),
        paymentType: 'RF',
        merchantTransactionId: reference,
      },
    });
    const { code, description } = resultOf(res.body);
    if (!res.body || !code || ![200, 400].includes(res.status))
      throw this.rejected(http, `POST ${path}`, res, code, description);
    return {
      id: str(res.body.id),
      resultCode: code,
      description,
      outcome: classifyResultCode(code),
      raw: res.body,
    };
  }

  /**
   * Decrypts and checks a webhook with the configured key. Throws `GatewayOneWebhookError` for a body that
   * must be refused (401) and must change nothing.
   */
  openWebhook(webhook: EncryptedWebhook): GatewayOneWebhookEvent {
    return parseWebhookEvent(decryptWebhook(webhook, this.require().settings.webhookKey));
  }

  private async findReusableCheckout(
    input: CreateCheckoutInput,
    deadline: number,
  ): Promise<(CheckoutCreated & { reused: true }) | undefined> {
    const currency = normalizeCurrency(input.currency);
    const known = await this.findByMerchantTransactionId(input.merchantTransactionId, deadline);
    const match = known.find(
      (p) =>
        p.checkoutId &&
        p.outcome !== 'failed' &&
        p.amountCents === input.amountCents &&
        p.currency === currency,
    );
    return match?.checkoutId
      ? { id: match.checkoutId, resultCode: match.resultCode, raw: match.raw, reused: true }
      : undefined;
  }

  private toPayment(http: ProviderHttp, body: Json): GatewayOnePayment {
    const { code = '', description } = resultOf(body);
    const amount = str(body.amount);
    const currency = str(body.currency)?.toUpperCase();
    let amountCents: number | undefined;
    try {
      amountCents = amount && currency ? majorToMinor(amount, currency) : undefined;
    } catch (error) {
      if (!(error instanceof MoneyError)) throw error;
      throw http.error('unavailable', `${PROVIDER} answered an unreadable amount (${error.message})`);
    }
    const checkoutId = str(body.ndc);
    const id = str(body.id);
    return {
      checkoutId,
      paymentId: id && id !== checkoutId ? id : undefined,
      paymentType: str(body.paymentType),
      resultCode: code,
      description,
      outcome: classifyResultCode(code),
      amountCents,
      currency,
      merchantTransactionId: str(body.merchantTransactionId),
      registrationId: str(body.registrationId),
      customParameters: body.customParameters as Record<string, string> | undefined,
      raw: body,
    };
  }

  private rejected(
    http: ProviderHttp,
    what: string,
    res: ProviderResponse,
    code: string | undefined,
    description: string,
  ): ProviderError {
    const detail = code ? ` (${code}${description ? `: ${description}` : ''})` : '';
    if (res.status < 400)
      return http.error('unavailable', `${PROVIDER} ${what}: unreadable answer${detail}`, res.status, code);
    return http.error(
      'rejected',
      `${PROVIDER} refused ${what} with ${res.status}${detail}`,
      res.status,
      code,
    );
  }

  private require(): { settings: GatewayOneSettings; http: ProviderHttp } {
    if (!this.settings || !this.http)
      throw new ProviderError(PROVIDER, 'unavailable', `${PROVIDER} is not configured`);
    return { settings: this.settings, http: this.http };
  }
}
