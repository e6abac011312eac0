import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import { In } from 'typeorm';
import type { RequestMeta } from '#app/common/http/request-meta.js';
import { ActivityLog } from './entities/activity-log.entity.js';

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

/** The activity log: security and account events with ip, user agent and request id (DESIGN §3). */
@Injectable()
export class ActivityLogService {
  constructor(@InjectRepository(ActivityLog) private readonly logs: Repository<ActivityLog>) {}

  async record(entry: ActivityEntry, meta: RequestMeta, manager?: EntityManager): Promise<void> {
    const repo = manager ? manager.getRepository(ActivityLog) : this.logs;
    await repo.insert({
      user_id: entry.userId,
      site_id: entry.siteId,
      activity_type: entry.type,
      description: entry.description,
      severity: entry.severity ?? 'info',
      ip_address: meta.ip,
      user_agent: meta.userAgent,
      request_id: meta.requestId,
      session_id: meta.sessionId,
      resource_type: entry.resourceType ?? null,
      resource_id: entry.resourceId ?? null,
      metadata: (entry.metadata ?? {}) as never,
    });
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
