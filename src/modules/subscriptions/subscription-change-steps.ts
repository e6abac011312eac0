import { Injectable } from '@nestjs/common';
import { isUUID } from 'class-validator';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { AppException } from '#app/common/errors/app.exception.js';
import type { RequestMeta } from '#app/common/http/request-meta.js';
import { AccountsService } from '#app/modules/users/accounts.service.js';
import { ActivityLogService } from '#app/modules/users/activity-log.service.js';
import type { SubscriptionDto } from './dto/subscription.dto.js';
import { toSubscriptionDto } from './subscriptions.mapper.js';
import {
  type HistoryEvent,
  type SubscriptionRow,
  SubscriptionsRepository,
} from './subscriptions.repository.js';
import { mayRead } from './subscriptions.service.js';

/**
 * The steps every change to a membership shares (cancel, upgrade, pause, resume): the row locked for the
 * caller, the activity entry, the answer read back after the commit.
 */
@Injectable()
export class SubscriptionChangeSteps {
  constructor(
    private readonly subs: SubscriptionsRepository,
    private readonly activity: ActivityLogService,
    private readonly accounts: AccountsService,
  ) {}

  /**
   * The row locked, if the caller may act on it: an admin of its site, or (cancel) its member; else 404. Its
   * member's account is held first (`AccountsService.holdAccount`): the change writes the member's activity
   * row, and an erasure of the member locks the account, then its memberships.
   */
  async locked(caller: AuthUser, id: string): Promise<SubscriptionRow> {
    const owner = isUUID(id) ? await this.subs.ownerOf(id) : null;
    if (owner) await this.accounts.holdAccount(owner);
    const s = owner ? await this.subs.lock(id) : null;
    if (!s || !mayRead(caller, s)) throw AppException.notFound('Subscription');
    return s;
  }

  /** The membership as the caller now sees it, read after the change committed. */
  async answer(caller: AuthUser, id: string): Promise<SubscriptionDto> {
    const s = await this.subs.findById(id);
    if (!s || !mayRead(caller, s)) throw AppException.notFound('Subscription');
    return toSubscriptionDto(s);
  }

  /** The change in the member's activity log, with who made it (the history event and the actor's role). */
  record(
    s: SubscriptionRow,
    caller: Pick<AuthUser, 'id' | 'role'>,
    meta: RequestMeta,
    type: string,
    description: string,
    event: HistoryEvent,
  ): Promise<void> {
    return this.activity.record(
      {
        userId: s.user_id,
        siteId: s.site_id,
        type,
        description: description.slice(0, 500),
        resourceType: 'subscription',
        resourceId: s.id,
        metadata: { ...event, actor_role: caller.role },
      },
      meta,
    );
  }
}
