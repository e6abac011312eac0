import { Injectable } from '@nestjs/common';
import type { EntityManager, Repository } from 'typeorm';
import { In } from 'typeorm';
import type { RequestMeta } from '#app/common/http/request-meta.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { ActivityLog } from './entities/activity-log.entity.js';
import { keepPlan } from '#app/infra/database/kept-plans.js';

export interface ActivityEntry {
  userId: string | null;
  siteId: string | null;
  type: string;
  description: string;
  severity?: 'info' | 'warning' | 'critical';
  resourceType?: string;
  resourceId?: string;
  metadata?: Record<string, unknown>;
}

const INSERT_ACTIVITY = keepPlan(`
  INSERT INTO activity_logs (user_id, site_id, activity_type, description, severity, ip_address, user_agent,
                             request_id, session_id, resource_type, resource_id, metadata, actor_id)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`);

function activityValues(entry: ActivityEntry, meta: RequestMeta): unknown[] {
  return [
    entry.userId,
    entry.siteId,
    entry.type,
    entry.description,
    entry.severity ?? 'info',
    meta.ip,
    meta.userAgent,
    meta.requestId,
    meta.sessionId,
    entry.resourceType ?? null,
    entry.resourceId ?? null,
    JSON.stringify(entry.metadata ?? {}),
    meta.actorId,
  ];
}

/** The activity log: security and account events with ip, user agent and request id (DESIGN §3). */
@Injectable()
export class ActivityLogService {
  constructor(private readonly tx: TransactionRunner) {}

  /** ActivityLogs in the ambient transaction when there is one. */
  private get logs(): Repository<ActivityLog> {
    return this.tx.repo(ActivityLog);
  }

  /** Appends an entry in `manager`'s transaction, else the ambient one (one plain INSERT: it is on hot paths). */
  async record(entry: ActivityEntry, meta: RequestMeta, manager?: EntityManager): Promise<void> {
    await (manager ?? this.tx.manager).query(INSERT_ACTIVITY, activityValues(entry, meta));
  }

  /**
   * Appends an entry in the ambient transaction together with its next statement
   * (`TransactionRunner.defer`): the sale path's activity rows cost no round trip of their own.
   */
  recordLater(entry: ActivityEntry, meta: RequestMeta): void {
    this.tx.defer(INSERT_ACTIVITY, activityValues(entry, meta));
  }

  /** `recordLater` for many entries, in one INSERT. */
  recordManyLater(entries: ActivityEntry[], meta: RequestMeta): void {
    if (!entries.length) return;
    const values = entries.map((e) => activityValues(e, meta));
    const columns = values[0].length;
    const rows = values.map(
      (_v, r) => `(${Array.from({ length: columns }, (_c, c) => `$${r * columns + c + 1}`).join(', ')})`,
    );
    this.tx.defer(
      `${INSERT_ACTIVITY.slice(0, INSERT_ACTIVITY.indexOf('VALUES'))}VALUES ${rows.join(', ')}`,
      values.flat(),
    );
  }

  /** The newest entries of each user, in one query. */
  async recentFor(userIds: string[], perUser = 50): Promise<Map<string, ActivityLog[]>> {
    const byUser = new Map<string, ActivityLog[]>();
    if (!userIds.length) return byUser;
    const rows = await this.logs.find({
      where: { user_id: In(userIds) },
      order: { created_at: 'DESC' },
      take: perUser * userIds.length,
    });
    for (const row of rows) {
      if (!row.user_id) continue;
      const list = byUser.get(row.user_id) ?? [];
      if (list.length < perUser) list.push(row);
      byUser.set(row.user_id, list);
    }
    return byUser;
  }
}
