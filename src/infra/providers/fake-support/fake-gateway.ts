import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';

/** One request a fake received: whether it carried credentials, never their value. */
export interface FakeRequest {
  method: string;
  path: string;
  query: Record<string, unknown>;
  body: unknown;
  authorization: boolean;
  at: Date;
}

/** One webhook a fake sent. `status` 0: the receiver could not be reached. */
export interface FakeWebhookDelivery {
  url: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One route of a provider's API: its method, its path, and what answers it. */
export type ApiRoute = [
  method: 'get' | 'post' | 'delete',
  path: string,
  answer: (req: Request, res: Response) => Promise<void>,
];

/** `hang`: the connection is accepted and the request read, and no answer ever comes (until it closes). */
export type DownMode = 'unavailable' | 'reset' | 'hang';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Async Express handlers whose failures reach Express's error handling. */
export const handle =
  (fn: (req: Request, res: Response) => Promise<void>): RequestHandler =>
  (req: Request, res: Response, next: NextFunction) => {
    fn(req, res).catch(next);
  };

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * What a shopper is told after deciding on a hosted page, when no return address was given: the sandbox
 * says what happens next and where to look. `reference` is our order (payment) id; HTML, escaped by the
 * provider of the text.
 */
export interface PaidOutcome {
  reference: string | undefined;
  siteId: string | undefined;
  paid: boolean;
  state: string;
}
export type NextSteps = (outcome: PaidOutcome) => string;

/** A minimal page for the hosted payment forms. */
export function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}
button{font-size:1rem;padding:.5rem 1.25rem;margin-right:.5rem}</style></head>
<body>${body}</body></html>`;
}

/**
 * What both gateway fakes share: the controls tests and the sandbox use (latency, outages, failures),
 * the request log and the webhook log. Controls apply to the JSON API routes only, not to the hosted
 * pages a browser sees.
 */
export abstract class FakeGateway {
  /** Requests to the API routes, oldest first. */
  readonly requests: FakeRequest[] = [];
  /** Webhooks sent, oldest first. */
  readonly webhooks: FakeWebhookDelivery[] = [];
  private latencyMs = 0;
  private down: DownMode | undefined;
  private failures = 0;
  private failStatus = 500;

  /** Answers of the API routes wait this long (after the work is done: the answer, not the work, is late). */
  setLatency(ms: number): void {
    this.latencyMs = ms;
  }

  /**
   * The API answers 503 without doing anything (`unavailable`), drops the connection (`reset`), or never
   * answers (`hang`).
   */
  goDown(mode: DownMode = 'unavailable'): void {
    this.down = mode;
  }

  comeUp(): void {
    this.down = undefined;
  }

  /** The next `n` API requests answer `status` (500 by default) without doing anything. */
  failNext(n: number, status = 500): void {
    this.failures = n;
    this.failStatus = status;
  }

  /** Whether no control is set: no latency, no outage, no failures to come. */
  get controlsIdle(): boolean {
    return this.latencyMs === 0 && this.down === undefined && this.failures === 0;
  }

  /** Forgets the logs and the controls (not the payments). */
  resetControls(): void {
    this.requests.length = 0;
    this.webhooks.length = 0;
    this.latencyMs = 0;
    this.down = undefined;
    this.failures = 0;
  }

  /** Logs the request, then applies outages and failures. Put in front of every API route. */
  protected readonly gate: RequestHandler = (req, res, next) => {
    this.requests.push({
      method: req.method,
      path: req.baseUrl + req.path,
      query: { ...(req.query as Record<string, unknown>) },
      body: req.body as unknown,
      authorization: typeof req.headers.authorization === 'string',
      at: new Date(),
    });
    if (this.down === 'reset') {
      req.socket.destroy();
      return;
    }
    if (this.down === 'hang') return; // the client's timeout is all that ends it
    if (this.down === 'unavailable') {
      res.status(503).json({ message: 'service unavailable' });
      return;
    }
    if (this.failures > 0) {
      this.failures--;
      res.status(this.failStatus).json({ message: 'internal error' });
      return;
    }
    next();
  };

  /**
   * A router for the provider's API: every route logged and behind the controls (`gate`), its failures
   * passed to Express. Parsers for both kinds of body come first, so the router also works outside the app
   * (whose parsers run before it). Pages a browser sees are added to it by the fake, after these.
   */
  protected apiRouter(routes: readonly ApiRoute[]): express.Router {
    const router = express.Router();
    router.use(express.urlencoded({ extended: false }), express.json());
    for (const [method, path, answer] of routes) router[method](path, this.gate, handle(answer));
    return router;
  }

  protected async reply(res: Response, status: number, body: unknown): Promise<void> {
    if (this.latencyMs > 0) await sleep(this.latencyMs);
    if (!res.destroyed) res.status(status).json(body);
  }

  protected async post(url: string, headers: Record<string, string>, body: string): Promise<number> {
    const all = { 'Content-Type': 'application/json', ...headers };
    let status = 0;
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: all,
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(10_000),
      });
      status = res.status;
      await res.arrayBuffer();
    } finally {
      this.webhooks.push({ url, status, headers: all, body });
    }
    return status;
  }
}
