import { Injectable } from '@nestjs/common';

/** A member's loyalty as the rewards summary shows it (memberships keep it). */
export interface LoyaltyFacts {
  streakMonths: number;
  lifetimeMonths: number;
  milestonesAwarded: Record<string, unknown>;
}

export const NO_LOYALTY: LoyaltyFacts = { streakMonths: 0, lifetimeMonths: 0, milestonesAwarded: {} };

/**
 * The port through which memberships tell rewards a member's streak without rewards importing them
 * (memberships import rewards). Registered by memberships in `onModuleInit`; none: no membership yet.
 */
@Injectable()
export class LoyaltyPort {
  private source?: (userId: string, siteId: string) => Promise<LoyaltyFacts | null>;

  provide(source: (userId: string, siteId: string) => Promise<LoyaltyFacts | null>): void {
    this.source = source;
  }

  async of(userId: string, siteId: string): Promise<LoyaltyFacts> {
    return (await this.source?.(userId, siteId)) ?? NO_LOYALTY;
  }
}
