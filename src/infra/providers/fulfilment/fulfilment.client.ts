import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '#app/config/app-config.js';
import { ProviderError } from '#app/infra/providers/provider-error.js';
import { ProviderHttp, type ProviderResponse } from '#app/infra/providers/provider-http.js';
import type { FulfilmentCreated, FulfilmentOrder, FulfilmentOrderInput } from './fulfilment.types.js';

const PROVIDER = 'fulfilment';

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The provider's order in our terms; undefined when the answer holds none. */
export function readOrder(body: Record<string, unknown> | undefined): FulfilmentOrder | undefined {
  const order = body?.order as Record<string, unknown> | undefined;
  const id = str(order?.id);
  if (!order || !id) return undefined;
  const status = order.status as Record<string, unknown> | undefined;
  return {
    id,
    stage: str(status?.stage) ?? 'InProgress',
    shipments: Array.isArray(order.shipments) ? (order.shipments as unknown[]) : [],
    charges: Array.isArray(order.charges) ? (order.charges as unknown[]) : [],
    raw: order,
  };
}

/**
 * The print-on-demand provider (Prodigi v4-like, DESIGN §7) over HTTP: `X-API-Key` on every call. An
 * order is created with one `idempotencyKey` per merch order, so sending it again after a lost answer
 * answers `AlreadyExists` with the same order; reads are retried.
 */
@Injectable()
export class FulfilmentClient {
  private readonly http: ProviderHttp | undefined;

  constructor(@Inject(AppConfig) config: Pick<AppConfig, 'fulfilment'>) {
    const settings = config.fulfilment;
    this.http = settings
      ? new ProviderHttp({
          provider: PROVIDER,
          baseUrl: settings.baseUrl,
          timeoutMs: settings.timeoutMs,
          headers: { 'X-API-Key': settings.apiKey },
          secrets: [settings.apiKey],
        })
      : undefined;
  }

  get configured(): boolean {
    return this.http !== undefined;
  }

  /** `POST /v4.0/Orders`. */
  async createOrder(input: FulfilmentOrderInput): Promise<FulfilmentCreated> {
    const http = this.require();
    const res = await http.send({ method: 'POST', path: '/v4.0/Orders', json: input });
    const order = readOrder(res.body);
    if (res.status >= 300 || !order) throw this.failure(http, 'POST /v4.0/Orders', res);
    return { outcome: res.body?.outcome === 'AlreadyExists' ? 'AlreadyExists' : 'Created', order };
  }

  /** `GET /v4.0/Orders/{id}`: the provider's own record (a callback is only a hint). */
  async getOrder(id: string): Promise<FulfilmentOrder> {
    const http = this.require();
    const res = await http.send({
      method: 'GET',
      path: `/v4.0/Orders/${encodeURIComponent(id)}`,
      retry: true,
    });
    const order = readOrder(res.body);
    if (res.status >= 300 || !order) throw this.failure(http, 'GET /v4.0/Orders/{id}', res);
    return order;
  }

  private require(): ProviderHttp {
    if (!this.http) throw new ProviderError(PROVIDER, 'unavailable', 'fulfilment is not configured');
    return this.http;
  }

  private failure(http: ProviderHttp, what: string, res: ProviderResponse): ProviderError {
    const kind = res.status >= 500 || res.status < 300 ? 'unavailable' : 'rejected';
    return http.error(kind, `${what} answered ${res.status}`, res.status);
  }
}
