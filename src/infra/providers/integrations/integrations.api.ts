import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '#app/config/app-config.js';
import { ProviderError } from '#app/infra/providers/provider-error.js';
import { ProviderHttp } from '#app/infra/providers/provider-http.js';

const TIMEOUT_MS = 10_000;

export interface Contact {
  email: string;
  firstName: string | null;
  lastName: string | null;
}

export interface AnalyticsEvent {
  /** Stable per event: the provider drops a repeat (a retried delivery). */
  messageId: string;
  userId: string;
  event: string;
  properties: Record<string, unknown>;
  timestamp: string;
}

/**
 * The contact-list provider (Brevo-contacts-like: `POST /v3/contacts` with `updateEnabled`, removal
 * from a list) and the analytics provider (Segment-like `POST /v1/track`, deduplicated on `messageId`),
 * over HTTP with the site's own key, decrypted by the caller only to send. A failure throws
 * `ProviderError` (the job retries with back-off).
 */
@Injectable()
export class IntegrationsApi {
  constructor(
    @Inject(AppConfig)
    private readonly config: Pick<AppConfig, 'contactsvcBaseUrl' | 'analyticsBaseUrl' | 'marketingBaseUrl'>,
  ) {}

  get contactsConfigured(): boolean {
    return this.config.contactsvcBaseUrl !== undefined;
  }

  get analyticsConfigured(): boolean {
    return this.config.analyticsBaseUrl !== undefined;
  }

  get marketingConfigured(): boolean {
    return this.config.marketingBaseUrl !== undefined;
  }

  /**
   * Marketing automation (Brevo-automation-like, same account and key as the contact list):
   * `POST /v2/identify` `{email, externalId, attributes}` → `{id}`, the person's id there (the same id for
   * the same e-mail: identifying again is harmless).
   */
  async identify(apiKey: string, person: Contact & { externalId: string }): Promise<string> {
    const http = this.http('marketing', this.config.marketingBaseUrl, { 'ma-key': apiKey }, apiKey);
    const res = await http.send({
      method: 'POST',
      path: '/v2/identify',
      json: {
        email: person.email,
        externalId: person.externalId,
        attributes: { FIRSTNAME: person.firstName, LASTNAME: person.lastName },
      },
    });
    const id = res.body?.id;
    if (res.status >= 300 || (typeof id !== 'string' && typeof id !== 'number'))
      throw http.error(
        res.status >= 500 || res.status < 300 ? 'unavailable' : 'rejected',
        `POST /v2/identify answered ${res.status}`,
        res.status,
      );
    return String(id);
  }

  async upsertContact(apiKey: string, listId: string | null, contact: Contact): Promise<void> {
    const http = this.http('contactsvc', this.config.contactsvcBaseUrl, { 'api-key': apiKey }, apiKey);
    const res = await http.send({
      method: 'POST',
      path: '/v3/contacts',
      json: {
        email: contact.email,
        attributes: { FIRSTNAME: contact.firstName, LASTNAME: contact.lastName },
        ...(listId ? { listIds: [Number(listId) || listId] } : {}),
        updateEnabled: true,
      },
    });
    if (res.status >= 300)
      throw http.error(
        res.status >= 500 ? 'unavailable' : 'rejected',
        `POST /v3/contacts answered ${res.status}`,
        res.status,
      );
  }

  /** Off the list for good (marketing consent withdrawn); a contact it does not know counts as gone. */
  async removeContact(apiKey: string, email: string): Promise<void> {
    const http = this.http('contactsvc', this.config.contactsvcBaseUrl, { 'api-key': apiKey }, apiKey);
    const res = await http.send({
      method: 'DELETE',
      path: `/v3/contacts/${encodeURIComponent(email)}`,
      pathLabel: '/v3/contacts/{email}',
    });
    if (res.status >= 300 && res.status !== 404)
      throw http.error(
        res.status >= 500 ? 'unavailable' : 'rejected',
        `DELETE /v3/contacts/{email} answered ${res.status}`,
        res.status,
      );
  }

  async track(apiKey: string, event: AnalyticsEvent): Promise<void> {
    const auth = `Basic ${Buffer.from(`${apiKey}:`).toString('base64')}`;
    const http = this.http('analytics', this.config.analyticsBaseUrl, { Authorization: auth }, apiKey);
    const res = await http.send({ method: 'POST', path: '/v1/track', json: event });
    if (res.status >= 300)
      throw http.error(
        res.status >= 500 ? 'unavailable' : 'rejected',
        `POST /v1/track answered ${res.status}`,
        res.status,
      );
  }

  private http(
    provider: string,
    baseUrl: string | undefined,
    headers: Record<string, string>,
    secret: string,
  ): ProviderHttp {
    if (!baseUrl) throw new ProviderError(provider, 'unavailable', `${provider} is not configured`);
    return new ProviderHttp({ provider, baseUrl, timeoutMs: TIMEOUT_MS, headers, secrets: [secret] });
  }
}
