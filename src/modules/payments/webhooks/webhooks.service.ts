import { Injectable } from '@nestjs/common';
import { AppException } from '#app/common/errors/app.exception.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { JobQueue } from '#app/infra/jobs/job-queue.service.js';
import { GatewayOneClient } from '#app/infra/providers/gatewayone/gatewayone.client.js';
import {
  GatewayOneWebhookError,
  webhookEventKey as gatewayOneKey,
} from '#app/infra/providers/gatewayone/gatewayone.rules.js';
import { GatewayTwoClient } from '#app/infra/providers/gatewaytwo/gatewaytwo.client.js';
import { webhookEventKey as gatewayTwoKey } from '#app/infra/providers/gatewaytwo/gatewaytwo.rules.js';
import { InboundEventsRepository } from '../inbound-events.repository.js';

export interface Received {
  received: true;
  /** The provider sent this event before: answered, and dropped. */
  duplicate: boolean;
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The gateways' webhooks: authenticate (decrypt, or check the signature), store the event raw in the
 * inbox once per event key, enqueue its processing in the same transaction, and answer at once. A body
 * that fails authentication is 401 and changes nothing.
 */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly one: GatewayOneClient,
    private readonly two: GatewayTwoClient,
    private readonly inbox: InboundEventsRepository,
    private readonly jobs: JobQueue,
    private readonly tx: TransactionRunner,
  ) {}

  async gatewayOne(body: unknown, headers: Record<string, string | string[] | undefined>): Promise<Received> {
    const encryptedBody = (body as { encryptedBody?: unknown } | null)?.encryptedBody;
    const ivHex = header(headers['x-initialization-vector']);
    const tagHex = header(headers['x-authentication-tag']);
    if (typeof encryptedBody !== 'string' || !ivHex || !tagHex) throw unauthentic();
    let event;
    try {
      event = this.one.openWebhook({ encryptedBody, ivHex, tagHex });
    } catch (error) {
      if (error instanceof GatewayOneWebhookError) throw unauthentic();
      throw error;
    }
    return this.store(
      'gatewayone',
      gatewayOneKey(event),
      event.type,
      event as unknown as Record<string, unknown>,
    );
  }

  async gatewayTwo(
    rawBody: Buffer | undefined,
    headers: Record<string, string | string[] | undefined>,
  ): Promise<Received> {
    const event = rawBody
      ? this.two.verifyWebhook({
          rawBody,
          timestampHeader: header(headers['revolut-request-timestamp']),
          signatureHeader: header(headers['revolut-signature']),
        })
      : undefined;
    if (!event) throw unauthentic();
    return this.store(
      'gatewaytwo',
      gatewayTwoKey(event),
      event.event,
      event as unknown as Record<string, unknown>,
    );
  }

  private store(
    provider: string,
    key: string,
    type: string,
    payload: Record<string, unknown>,
  ): Promise<Received> {
    return this.tx.run(async (manager) => {
      const id = await this.inbox.insertOnce(manager, {
        provider,
        event_key: key,
        event_type: type,
        payload,
      });
      if (!id) return { received: true, duplicate: true };
      await this.jobs.enqueue('inbound.process', { inbound_event_id: id }, { manager });
      return { received: true, duplicate: false };
    });
  }
}

function unauthentic(): AppException {
  return AppException.unauthenticated('The notification could not be authenticated.');
}
