import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
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
  method: 'GET' | 'POST' | 'DELETE';
  /** Appended to the base URL; ids in it are URL-encoded by the caller. */
  path: string;
  /**
   * The path as errors name it, when `path` holds personal data (an e-mail address): errors reach logs, the
   * activity log and the dead letters admins list, which hold none.
   */
  pathLabel?: string;
  query?: Record<string, string>;
  form?: Record<string, string>;
  json?: unknown;
  /** Reads only: retry network errors and 5xx. Creations and refunds are sent once. */
  retry?: boolean;
  /**
   * When the caller's whole exchange must be over (epoch ms, from `deadline()`): several calls made for
   * one request share it. Without one, this call and its retries get `timeoutMs` together.
   */
  deadline?: number;
}

export interface ProviderResponse {
  status: number;
  /** The JSON object answered, or undefined when the body was not one. */
  body: Record<string, unknown> | undefined;
}

const DEFAULT_BACKOFF_MS = [100, 300] as const;

/** Statuses that answer no request: come back later (429 Too Many Requests, 425 Too Early), 408 Request Timeout. */
const TURNED_AWAY = new Set([408, 425, 429]);

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

/** Why a request failed, in words that carry no address or credential. */
function networkReason(error: unknown): string {
  const { name, code } = (error ?? {}) as { name?: unknown; code?: unknown };
  if (name === 'TimeoutError' || name === 'AbortError' || code === 'ABORT_ERR') return 'timed out';
  return typeof code === 'string' ? `network error ${code.toLowerCase()}` : 'network error';
}

/**
 * A connection that was never made, or a request that timed out before any of it was sent (it waited for a
 * connection the whole time): the request cannot have reached the provider.
 */
function neverReached(error: unknown): boolean {
  const { code, unsent } = (error ?? {}) as { code?: unknown; unsent?: unknown };
  return unsent === true || code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN';
}

/**
 * Connections to providers are kept open between requests (every paid order asks the gateway once):
 * one pool per protocol for the process, shared by every client and site.
 */
const AGENTS = {
  'http:': new HttpAgent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 16 }),
  'https:': new HttpsAgent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 16 }),
};

/**
 * HTTP to one provider with Node's own http client and a keep-alive pool (a third of the CPU of
 * `fetch`, which a confirmation pays on its hot path): one timeout per call however many attempts it
 * makes, retries only where the caller says the request is safe to repeat, and errors that never carry a
 * credential. Answers below 500 are returned for the adapter to interpret (some gateways answer results with
 * 400), but for those that answer no request (`TURNED_AWAY`).
 */
export class ProviderHttp {
  private readonly logger: Logger;
  private readonly baseUrl: string;

  constructor(private readonly options: ProviderHttpOptions) {
    this.logger = new Logger(options.provider);
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  /** The end of a budget of `timeoutMs` from now, for several calls that serve one request. */
  deadline(): number {
    return Date.now() + this.options.timeoutMs;
  }

  /**
   * One call, and its retries where allowed, within one timeout (or the caller's deadline): a provider
   * that hangs holds the request for `timeoutMs` at most, never once per attempt. A timed-out attempt
   * has spent the budget, so only fast failures (refused connections, 5xx) are retried, and only while
   * the pause still leaves time to try.
   */
  async send(request: ProviderRequest): Promise<ProviderResponse> {
    const deadline = request.deadline ?? this.deadline();
    const backoff = request.retry ? (this.options.backoffMs ?? DEFAULT_BACKOFF_MS) : [];
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.once(request, deadline - Date.now());
      } catch (error) {
        const pause = attempt < backoff.length ? backoff[attempt] : Infinity;
        if (
          !(error instanceof ProviderError) ||
          error.kind !== 'unavailable' ||
          Date.now() + pause >= deadline
        )
          throw error;
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
    unprocessed = false,
  ): ProviderError {
    return new ProviderError(this.options.provider, kind, this.scrub(message), httpStatus, code, unprocessed);
  }

  private async once(request: ProviderRequest, remainingMs: number): Promise<ProviderResponse> {
    const what = `${request.method} ${request.pathLabel ?? request.path}`;
    // The budget is the configured timeout, however it was spent: that is what the error names.
    const timedOut = (unsent = false) =>
      this.error(
        'unavailable',
        `${this.options.provider} ${what}: no answer within ${this.options.timeoutMs} ms`,
        undefined,
        undefined,
        unsent,
      );
    if (remainingMs <= 0) throw timedOut();
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
      ({ status, text } = await this.exchange(url, request.method, headers, body, remainingMs));
    } catch (error) {
      const reason = networkReason(error);
      if (reason === 'timed out') throw timedOut(neverReached(error));
      throw this.error(
        'unavailable',
        `${this.options.provider} ${what}: ${reason}`,
        undefined,
        undefined,
        neverReached(error),
      );
    }
    if (status >= 500)
      throw this.error(
        'unavailable',
        `${this.options.provider} ${what} answered ${status}`,
        status,
        undefined,
        status === 503,
      );
    // Asked to come back later (429, 425) or timed out waiting for our request (408): no answer to it, and
    // turned away before any work, so a read is retried and a write may be sent again. Never a refusal: a
    // provider that rate-limits must not fail (and refund) the order it was asked to make.
    if (TURNED_AWAY.has(status))
      throw this.error(
        'unavailable',
        `${this.options.provider} ${what} answered ${status}`,
        status,
        undefined,
        true,
      );
    // Never followed: an API that redirects is not answering (as fetch's `redirect: 'error'` treated it).
    if (status >= 300 && status < 400)
      throw this.error(
        'unavailable',
        `${this.options.provider} ${what}: network error (a redirect)`,
        status,
        undefined,
        true,
      );
    return { status, body: parseObject(text) };
  }

  /** One request and its whole answer within `timeoutMs` (connection, headers and body together). */
  private exchange(
    url: URL,
    method: string,
    headers: Record<string, string>,
    body: string | undefined,
    timeoutMs: number,
  ): Promise<{ status: number; text: string }> {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const agent = url.protocol === 'https:' ? AGENTS['https:'] : AGENTS['http:'];
    if (body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(body));
    return new Promise((resolve, reject) => {
      const req = send(url, { method, headers, agent });
      // A plain timer, not `AbortSignal.timeout`: the signal cost ~30 µs more CPU a call (an event target and
      // a weakly held timer each time), and every paid order makes this call on its hot path.
      const timer = setTimeout(() => {
        // Without a connected socket nothing was written: the request waited in the pool (every socket busy)
        // or for its connection to open, and provably never reached the provider. The agent writes the
        // request as it hands over a connected socket, so one that has a socket may have been acted on.
        const unsent = !req.socket || req.socket.connecting;
        reject(Object.assign(new Error('timed out'), { name: 'TimeoutError', unsent }));
        req.destroy();
      }, timeoutMs);
      const fail = (error: Error) => {
        clearTimeout(timer);
        reject(error);
      };
      req.once('error', fail);
      req.once('response', (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.once('error', fail);
        res.once('end', () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
        });
      });
      req.end(body);
    });
  }
}
