import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { Injectable } from '@nestjs/common';
import type { EntityManager, Repository } from 'typeorm';
import { InboundEvent, type InboundStatus } from './entities/inbound-event.entity.js';

@Injectable()
export class InboundEventsRepository {
  constructor(private readonly tx: TransactionRunner) {}

  /** InboundEvents in the ambient transaction when there is one. */
  private get events(): Repository<InboundEvent> {
    return this.tx.repo(InboundEvent);
  }

  /** Stores an event once per provider key; null when it was already there (a duplicate delivery). */
  async insertOnce(
    manager: EntityManager,
    row: Pick<InboundEvent, 'provider' | 'event_key' | 'event_type' | 'payload'> & {
      site_id?: string | null;
    },
  ): Promise<string | null> {
    const result = await manager
      .getRepository(InboundEvent)
      .createQueryBuilder()
      .insert()
      .values({ ...row, payload: row.payload as never })
      .orIgnore()
      .returning(['id'])
      .execute();
    const inserted = result.raw as Array<{ id: string }>;
    return inserted[0]?.id ?? null;
  }

  /** Empties one object inside the stored payloads of a provider's events (erasure), in the ambient transaction. */
  async emptyPayloadPath(provider: string, keys: string[], path: readonly string[]): Promise<void> {
    if (!keys.length) return;
    await this.tx.query(
      `UPDATE inbound_events SET payload = jsonb_set(payload, $3::text[], '{}'::jsonb, false)
        WHERE provider = $1 AND event_key = ANY($2::text[])`,
      [provider, keys, path],
    );
  }

  findById(id: string, manager?: EntityManager): Promise<InboundEvent | null> {
    return (manager ?? this.tx.manager).getRepository(InboundEvent).findOne({ where: { id } });
  }

  async mark(
    id: string,
    changes: Partial<
      Pick<InboundEvent, 'status' | 'last_error' | 'site_id' | 'payment_transaction_id' | 'processed_at'>
    >,
    manager?: EntityManager,
  ): Promise<void> {
    await (manager ?? this.tx.manager)
      .getRepository(InboundEvent)
      .createQueryBuilder()
      .update()
      .set({ ...changes, attempts: () => 'attempts + 1' })
      .where('id = :id', { id })
      .execute();
  }

  list(
    filter: { provider?: string; status?: InboundStatus; siteId?: string },
    limit: number,
    cursor?: string,
  ): Promise<InboundEvent[]> {
    const qb = this.events
      .createQueryBuilder('e')
      .orderBy('e.created_at', 'DESC')
      .addOrderBy('e.id', 'DESC')
      .take(limit);
    if (filter.provider) qb.andWhere('e.provider = :provider', { provider: filter.provider });
    if (filter.status) qb.andWhere('e.status = :status', { status: filter.status });
    if (filter.siteId) qb.andWhere('e.site_id = :siteId', { siteId: filter.siteId });
    if (cursor)
      qb.andWhere('(e.created_at, e.id) < (SELECT created_at, id FROM inbound_events WHERE id = :cursor)', {
        cursor,
      });
    return qb.getMany();
  }
}
