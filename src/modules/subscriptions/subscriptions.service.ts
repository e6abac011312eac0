import { LoyaltyPort } from '#app/modules/rewards/ports/loyalty.port.js';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { isUUID } from 'class-validator';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { AppException } from '#app/common/errors/app.exception.js';
import { PaymentHooks } from '#app/modules/payments/hooks/payment-hooks.js';
import { EntryCredits } from '#app/modules/raffles/ports/entry-credits.port.js';
import { AccountsService } from '#app/modules/users/accounts.service.js';
import type { SubscriptionDto } from './dto/subscription.dto.js';
import { toNestedSubscription, toSubscriptionDto } from './subscriptions.mapper.js';
import { type SubscriptionRow, SubscriptionsRepository } from './subscriptions.repository.js';
import type { SubscriptionStatus } from './subscriptions.rules.js';

/**
 * Reading memberships, and what they lend other features: their credits to raffle entries (the
 * `EntryCredits` port, first in line) and their nested form to the payments of the User record.
 */
@Injectable()
export class SubscriptionsService implements OnModuleInit {
  constructor(
    private readonly subs: SubscriptionsRepository,
    private readonly credits: EntryCredits,
    private readonly hooks: PaymentHooks,
    private readonly loyalty: LoyaltyPort,
    private readonly accounts: AccountsService,
  ) {}

  onModuleInit(): void {
    this.credits.provide(
      'membership',
      {
        // The member's account before the membership (`AccountsService.holdAccount`): the entry then writes
        // rows referencing the member, and an erasure locks the account, then the memberships.
        take: async (req) => {
          await this.accounts.holdAccount(req.userId);
          return this.subs.takeCredits(req.userId, req.siteId, req.quantity);
        },
      },
      10,
    );
    this.hooks.provideSubscriptions(async (ids) => {
      const now = new Date();
      return new Map((await this.subs.ofIds(ids)).map((s) => [s.id, toNestedSubscription(s, now)]));
    });
    this.loyalty.provide((userId, siteId) => this.subs.loyaltyOf(userId, siteId));
  }

  /** Endpoint 11: the owner, or an admin of its site (a superadmin: any); anyone else 404. */
  async get(caller: AuthUser, id: string): Promise<SubscriptionDto> {
    return toSubscriptionDto(await this.visible(caller, id));
  }

  /** A subscription the caller may see, or 404 (ids are not probed: another's answers as unknown). */
  async visible(caller: AuthUser, id: string): Promise<SubscriptionRow> {
    const s = isUUID(id) ? await this.subs.findById(id) : null;
    if (!s || !mayRead(caller, s)) throw AppException.notFound('Subscription');
    return s;
  }

  async mine(user: AuthUser, limit: number, cursor?: string): Promise<SubscriptionDto[]> {
    const now = new Date();
    return (await this.subs.list({ userId: user.id, siteId: user.siteId, limit, cursor })).map((s) =>
      toSubscriptionDto(s, now),
    );
  }

  async forAdmin(
    siteId: string,
    filter: { status?: SubscriptionStatus; userId?: string; limit: number; cursor?: string },
  ): Promise<SubscriptionDto[]> {
    const now = new Date();
    return (await this.subs.list({ siteId, ...filter })).map((s) => toSubscriptionDto(s, now));
  }
}

export function mayRead(caller: AuthUser, s: { user_id: string; site_id: string }): boolean {
  if (caller.role === 'superadmin') return true;
  if (caller.role === 'admin') return s.site_id === caller.siteId;
  return s.user_id === caller.id;
}
