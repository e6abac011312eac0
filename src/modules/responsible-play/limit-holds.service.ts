import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { NO_REQUEST } from '#app/common/http/request-meta.js';
import { AppConfig } from '#app/config/app-config.js';
import { ActivityLogService } from '#app/modules/users/activity-log.service.js';
import { type CreatedAccount, SignupHooks } from '#app/modules/users/ports/signup-hooks.port.js';
import { LimitHoldsRepository } from './limit-holds.repository.js';
import { addressHash, carriedFrom, holdKey, holdOf } from './limit-holds.rules.js';
import { ResponsiblePlayRepository } from './responsible-play.repository.js';
import { monthOf, NO_LIMITS } from './responsible-play.rules.js';

/**
 * A self-pause and a spend limit outlive the account they were set on (DESIGN §6 responsible play): account
 * deletion keeps what still runs for the address, and the next account made for that address on the site,
 * however it is made (registration, a guest purchase, a website form), starts with it.
 */
@Injectable()
export class LimitHoldsService implements OnModuleInit {
  /** The current key first, then those of a SECRETS_KEY rotation, so a hold made before it is still found. */
  private readonly keys: Buffer[];

  constructor(
    private readonly holds: LimitHoldsRepository,
    private readonly limits: ResponsiblePlayRepository,
    private readonly activity: ActivityLogService,
    private readonly signups: SignupHooks,
    config: AppConfig,
  ) {
    this.keys = [config.secretsKey, ...config.secretsKeysPrevious].map(holdKey);
  }

  onModuleInit(): void {
    this.signups.onAccountCreated((account) => this.carryTo(account));
  }

  /** In the deletion's transaction, before the address is erased from the row: keeps what still runs. */
  async keepFor(
    manager: EntityManager,
    user: { id: string; site_id: string; email: string },
    now: Date,
  ): Promise<void> {
    const row = await this.limits.findLimits(user.id, manager);
    if (!row) return;
    const spent = await this.limits.spentIn(user.id, monthOf(now), manager);
    const hold = holdOf({ ...NO_LIMITS, ...row }, spent, now);
    if (hold)
      await this.holds.keep(manager, user.site_id, addressHash(this.keys[0], user.site_id, user.email), hold);
  }

  /** In the new account's transaction: starts it with a held pause, limit and month's spend, if any. */
  private async carryTo(account: CreatedAccount): Promise<void> {
    const hashes = this.keys.map((key) => addressHash(key, account.siteId, account.email));
    const hold = await this.holds.take(account.manager, account.siteId, hashes);
    const carried = hold && carriedFrom(hold, account.at);
    if (!carried) return;
    await this.holds.startWith(account.manager, account.userId, carried);
    await this.activity.record(
      {
        userId: account.userId,
        siteId: account.siteId,
        type: 'limits_carried',
        description: 'Responsible-play limits carried over from a deleted account of this address',
        resourceType: 'user_limits',
        resourceId: account.userId,
        metadata: { ...carried.state, spent_cents: carried.spentCents, month: carried.month },
      },
      NO_REQUEST,
      account.manager,
    );
  }
}
