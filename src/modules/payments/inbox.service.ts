import { Injectable } from '@nestjs/common';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { AppException } from '#app/common/errors/app.exception.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { JobQueue } from '#app/infra/jobs/job-queue.service.js';
import type { InboundEventDto, InboundEventsQueryDto } from './dto/inbound-event.dto.js';
import type { InboundEvent } from './entities/inbound-event.entity.js';
import { InboundEventsRepository } from './inbound-events.repository.js';

function toDto(e: InboundEvent): InboundEventDto {
  return {
    id: e.id,
    provider: e.provider,
    event_key: e.event_key,
    event_type: e.event_type,
    status: e.status,
    site_id: e.site_id,
    payment_transaction_id: e.payment_transaction_id,
    attempts: e.attempts,
    last_error: e.last_error,
    payload: e.payload,
    created_at: e.created_at.toISOString(),
    processed_at: e.processed_at ? e.processed_at.toISOString() : null,
  };
}

/** The admins' view of the webhook inbox, and replay of a stored event. */
@Injectable()
export class InboxService {
  constructor(
    private readonly inbox: InboundEventsRepository,
    private readonly jobs: JobQueue,
    private readonly tx: TransactionRunner,
  ) {}

  /**
   * An admin's site's events; a superadmin's of the site the request names (`site_id` or `X-Site-Id`), or of
   * every site (events not matched to a site yet among them) when it names none.
   */
  async list(
    caller: AuthUser,
    namedSite: string | undefined,
    query: InboundEventsQueryDto,
  ): Promise<InboundEventDto[]> {
    const siteId = caller.role === 'superadmin' ? namedSite : caller.siteId;
    const rows = await this.inbox.list(
      { provider: query.provider, status: query.status, siteId },
      query.limit,
      query.cursor,
    );
    return rows.map(toDto);
  }

  /**
   * Stores an event another feature received (a website form's submission) raw in the inbox, once per
   * `key`, and queues its processing in the same transaction; answers whether it was a duplicate.
   */
  receive(event: {
    provider: string;
    key: string;
    type: string;
    siteId: string | null;
    payload: Record<string, unknown>;
  }): Promise<{ received: boolean; duplicate: boolean }> {
    return this.tx.run(async (manager) => {
      const id = await this.inbox.insertOnce(manager, {
        provider: event.provider,
        event_key: event.key,
        event_type: event.type,
        site_id: event.siteId,
        payload: event.payload,
      });
      if (!id) return { received: true, duplicate: true };
      await this.jobs.enqueue('inbound.process', { inbound_event_id: id }, { manager });
      return { received: true, duplicate: false };
    });
  }

  /**
   * Erasure: what a provider's stored events hold at `path` (a form's fields) is emptied, for the events named by
   * their keys; the rest of each event (its key, type, status) stays, so a redelivery is still known.
   */
  forgetPayloadPath(provider: string, keys: string[], path: readonly string[]): Promise<void> {
    return this.inbox.emptyPayloadPath(provider, keys, path);
  }

  async replay(caller: AuthUser, id: string): Promise<InboundEventDto> {
    const event = await this.inbox.findById(id);
    if (!event || (caller.role !== 'superadmin' && event.site_id !== caller.siteId))
      throw AppException.notFound('Event');
    await this.tx.run(async (manager) => {
      await this.inbox.mark(event.id, { status: 'received', last_error: null, processed_at: null }, manager);
      await this.jobs.enqueue('inbound.process', { inbound_event_id: event.id }, { manager });
    });
    const after = await this.inbox.findById(id);
    return toDto(after ?? event);
  }
}
