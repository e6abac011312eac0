import type { Request, Response, Router } from 'express';
import { FakeGateway } from '#app/infra/providers/fake-support/fake-gateway.js';

/** A contact-list provider (Brevo-contacts-like) with in-memory contacts; one key accepted. */
export class FakeContactSvc extends FakeGateway {
  readonly contacts = new Map<
    string,
    { email: string; attributes: unknown; listIds: unknown[]; writes: number }
  >();
  readonly router: Router;

  constructor(private readonly apiKey: string) {
    super();
    this.router = this.apiRouter([
      ['post', '/v3/contacts', (req, res) => this.upsert(req, res)],
      ['delete', '/v3/contacts/:email', (req, res) => this.remove(req, res)],
    ]);
  }

  private async remove(req: Request, res: Response): Promise<void> {
    if (req.headers['api-key'] !== this.apiKey) return this.reply(res, 401, { code: 'unauthorized' });
    const existed = this.contacts.delete(String(req.params.email));
    await this.reply(res, existed ? 204 : 404, {});
  }

  private async upsert(req: Request, res: Response): Promise<void> {
    if (req.headers['api-key'] !== this.apiKey) return this.reply(res, 401, { code: 'unauthorized' });
    const body = req.body as { email?: string; attributes?: unknown; listIds?: unknown[] };
    if (!body.email) return this.reply(res, 400, { code: 'invalid_parameter' });
    const existing = this.contacts.get(body.email);
    this.contacts.set(body.email, {
      email: body.email,
      attributes: body.attributes,
      listIds: body.listIds ?? [],
      writes: (existing?.writes ?? 0) + 1,
    });
    await this.reply(res, existing ? 204 : 201, existing ? {} : { id: this.contacts.size });
  }
}

/** An analytics provider (Segment-like track) that keeps each `messageId` once. */
export class FakeAnalytics extends FakeGateway {
  readonly events = new Map<
    string,
    { userId: string; event: string; properties: unknown; timestamp: string | undefined }
  >();
  readonly router: Router;

  constructor(private readonly apiKey: string) {
    super();
    this.router = this.apiRouter([['post', '/v1/track', (req, res) => this.track(req, res)]]);
  }

  private async track(req: Request, res: Response): Promise<void> {
    const expected = `Basic ${Buffer.from(`${this.apiKey}:`).toString('base64')}`;
    if (req.headers.authorization !== expected) return this.reply(res, 401, { success: false });
    const body = req.body as {
      messageId?: string;
      userId?: string;
      event?: string;
      properties?: unknown;
      timestamp?: string;
    };
    if (!body.messageId || !body.event) return this.reply(res, 400, { success: false });
    if (!this.events.has(body.messageId))
      this.events.set(body.messageId, {
        userId: body.userId ?? '',
        event: body.event,
        properties: body.properties,
        timestamp: body.timestamp,
      });
    await this.reply(res, 200, { success: true });
  }
}

/** A marketing-automation provider: one person per e-mail, identified by a stable id. */
export class FakeMarketing extends FakeGateway {
  readonly people = new Map<string, { id: string; externalId: string; identifies: number }>();
  readonly router: Router;

  constructor(private readonly apiKey: string) {
    super();
    this.router = this.apiRouter([['post', '/v2/identify', (req, res) => this.identify(req, res)]]);
  }

  private async identify(req: Request, res: Response): Promise<void> {
    if (req.headers['ma-key'] !== this.apiKey) return this.reply(res, 401, { code: 'unauthorized' });
    const body = req.body as { email?: string; externalId?: string };
    if (!body.email) return this.reply(res, 400, { code: 'invalid_parameter' });
    const existing = this.people.get(body.email);
    const person = {
      id: existing?.id ?? `mkt_${this.people.size + 1}`,
      externalId: body.externalId ?? '',
      identifies: (existing?.identifies ?? 0) + 1,
    };
    this.people.set(body.email, person);
    await this.reply(res, 200, { id: person.id });
  }
}
