import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface MailerCall {
  path: string;
  headers: IncomingHttpHeaders;
  body: {
    templateId: number | string;
    to: Array<{ email: string; name?: string }>;
    params: Record<string, unknown>;
    bcc?: Array<{ email: string }>;
  };
}

/**
 * The transactional e-mail provider's send API (Brevo-like) on loopback: `POST /v3/smtp/email` with an
 * `api-key` header. Keys it accepts are registered by the test; any other answers 401 like the real one.
 */
export class FakeMailer {
  readonly calls: MailerCall[] = [];
  private readonly keys = new Set<string>();
  private failWith: number | null = null;
  private server?: Server;
  url = '';

  accept(apiKey: string): this {
    this.keys.add(apiKey);
    return this;
  }

  /** Answer every send with this status until called again with null. */
  fail(status: number | null): void {
    this.failWith = status;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const reply = (status: number, body: object): void => {
          res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
        };
        const key = req.headers['api-key'];
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as MailerCall['body'];
        if (req.method !== 'POST' || req.url !== '/v3/smtp/email') {
          reply(404, { code: 'not_found', message: 'Not found' });
        } else if (typeof key !== 'string' || !this.keys.has(key)) {
          reply(401, { code: 'unauthorized', message: 'Key not found' });
        } else if (this.failWith) {
          reply(this.failWith, { code: 'internal_error', message: 'Try again' });
        } else if (!body.templateId || !Array.isArray(body.to) || !body.to.length) {
          reply(400, { code: 'missing_parameter', message: 'templateId and to are required' });
        } else {
          this.calls.push({ path: req.url, headers: req.headers, body });
          reply(201, { messageId: `<${Date.now()}.${this.calls.length}@fake-mailer>` });
        }
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Calls that sent to one address. */
  to(email: string): MailerCall[] {
    return this.calls.filter((c) => c.body.to.some((r) => r.email === email));
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}
