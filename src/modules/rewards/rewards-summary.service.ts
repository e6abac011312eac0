import { Injectable } from '@nestjs/common';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { SitesService } from '#app/modules/sites/sites.service.js';
import type { RewardsSummaryDto } from './dto/referral.dto.js';
import { LoyaltyPort } from './ports/loyalty.port.js';
import { nextBonuses, rewardsRules } from './rewards.rules.js';

interface Counters {
  current_points: number;
  discount_claims_count: number;
  referral_points_awarded: number;
  referral_signup_points_awarded: number;
  referral_signups_count: number;
  successful_referrals_count: number;
}

const NONE: Counters = {
  current_points: 0,
  discount_claims_count: 0,
  referral_points_awarded: 0,
  referral_signup_points_awarded: 0,
  referral_signups_count: 0,
  successful_referrals_count: 0,
};

/**
 * Endpoint 15. Every figure is a counter kept on the rewards row by the transactions that move points
 * (or the membership's streak), read by primary key: the cost does not grow with the ledger.
 */
@Injectable()
export class RewardsSummaryService {
  constructor(
    private readonly tx: TransactionRunner,
    private readonly loyalty: LoyaltyPort,
    private readonly sites: SitesService,
  ) {}

  async summaryOf(user: AuthUser, siteId: string): Promise<RewardsSummaryDto> {
    const rows = await this.tx.manager.query<Counters[]>(
      `SELECT current_points, discount_claims_count, referral_points_awarded, referral_signup_points_awarded,
              referral_signups_count, successful_referrals_count
         FROM rewards_balances WHERE user_id = $1 AND site_id = $2`,
      [user.id, siteId],
    );
    const facts = await this.loyalty.of(user.id, siteId);
    const settings = await this.sites.settingsOf(siteId);
    const c = rows[0] ?? NONE;
    return {
      user_id: user.id,
      site_id: siteId,
      current_points: c.current_points,
      current_streak_months: facts.streakMonths,
      lifetime_months: facts.lifetimeMonths,
      milestones_awarded: facts.milestonesAwarded,
      discount_claims_count: c.discount_claims_count,
      referral_points_awarded: c.referral_points_awarded,
      referral_signup_points_awarded: c.referral_signup_points_awarded,
      referral_signups_count: c.referral_signups_count,
      successful_referrals_count: c.successful_referrals_count,
      ...nextBonuses(
        {
          streakMonths: facts.streakMonths,
          milestonesAwarded: facts.milestonesAwarded,
          discountClaims: c.discount_claims_count,
          successfulReferrals: c.successful_referrals_count,
        },
        rewardsRules(settings),
      ),
    };
  }
}
