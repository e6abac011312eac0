import { Logger } from '@nestjs/common';
import { ProviderError } from './provider-error.js';

export interface ProviderHttpOptions {
  provider: string;
  baseUrl: string;
  timeoutMs: number;
  /** Sent with every request (authorization). */
  headers: Record<string, string>;
  /** Values scrubbed from every message this client produces. */
  secrets: string[];
  /** Pause before each retry; its length is the most retries a read gets. */
  backoffMs?: readonly number[];
}

export interface ProviderRequest {
  method: 'GET' | 'POST';
  /** Appended to the base URL; ids in it are URL-encoded by the caller. */
  path: string;
  query?: Record<string, string>;
  form?: Record<string, string>;
  json?: unknown;
  /** Reads only: retry network errors, timeouts and 5xx. Creations and refunds are sent once. */
  retry?: boolean;
}

export interface ProviderResponse {
  status: number;
  /** The JSON object answered, or undefined when the body was not one. */
  body: Record<string, unknown> | undefined;
}

const DEFAULT_BACKOFF_MS = [100, 300] as const;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Why a fetch failed, in words that carry no address or credential. */
function networkReason(error: unknown): string {
  // Duck-typed: the abort is a DOMException, which need not be an `Error` of this realm.
  const { name, cause } = (error ?? {}) as { name?: unknown; cause?: { code?: unknown } };
  if (name === 'TimeoutError' || name === 'AbortError') return 'timed out';
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  return code ? `network error ${code.toLowerCase()}` : 'network error';
}

/**
 * HTTP to one provider with Node's fetch: a timeout per attempt (`AbortSignal.timeout`), retries only
 * where the caller says the request is safe to repeat, and errors that never carry a credential.
 * Answers below 500 are returned for the adapter to interpret (some gateways answer results with 400).
 */
export class ProviderHttp {
  private readonly logger: Logger;
  private readonly baseUrl: string;

  constructor(private readonly options: ProviderHttpOptions) {
    this.logger = new Logger(options.provider);
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  async send(request: ProviderRequest): Promise<ProviderResponse> {
    const backoff = request.retry ? (this.options.backoffMs ?? DEFAULT_BACKOFF_MS) : [];
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.once(request);
      } catch (error) {
        if (!(error instanceof ProviderError) || error.kind !== 'unavailable' || attempt >= backoff.length)
          throw error;
        const pause = backoff[attempt] ?? 0;
        this.logger.warn(`${error.message}; retrying in ${pause} ms`);
        await sleep(pause);
      }
    }
  }

  /** Removes every configured secret from a text (a provider may echo what it was sent). */
  scrub(text: string): string {
    return this.options.secrets
      .filter(Boolean)
      .reduce((t, secret) => t.split(secret).join('[REDACTED]'), text);
  }

  error(
    kind: 'unavailable' | 'rejected',
    message: string,
    httpStatus?: number,
    code?: string,
  ): ProviderError {
    return new ProviderError(this.options.provider, kind, this.scrub(message), httpStatus, code);
  }

  private async once(request: ProviderRequest): Promise<ProviderResponse> {
    const what = `${request.method} ${request.path}`;
    const url = new URL(this.baseUrl + request.path);
    for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.set(name, value);
    const headers: Record<string, string> = { Accept: 'application/json', ...this.options.headers };
    let body: string | undefined;
    if (request.form) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(request.form).toString();
    } else if (request.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(request.json);
    }
    let status: number;
    let text: string;
    try {
      const res = await fetch(url, {
        method: request.method,
        headers,
        body,
        redirect: 'error',
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      status = res.status;
      text = await res.text();
    } catch (error) {
      const reason = networkReason(error);
      const detail = reason === 'timed out' ? `no answer within ${this.options.timeoutMs} ms` : reason;
      throw this.error('unavailable', `${this.options.provider} ${what}: ${detail}`);
    }
    if (status >= 500)
      throw this.error('unavailable', `${this.options.provider} ${what} answered ${status}`, status);
    return { status, body: parseObject(text) };
  }
}
