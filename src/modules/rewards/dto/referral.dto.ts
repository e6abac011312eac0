import { Prop } from '#app/common/validation/fields.js';
import { REFERRAL_STATUSES } from '../entities/referral.entity.js';

/** Spec: Referral. */
export class ReferralDto {
  @Prop(String, { format: 'uuid' }) id!: string;
  @Prop(String, { example: 'main' }) site_id!: string;
  @Prop(String, { format: 'uuid' }) referrer_user_id!: string;
  @Prop(String, { format: 'uuid' }) referee_user_id!: string;
  @Prop(String, { example: 'K7QM4XTB' }) referral_code!: string;
  @Prop(String, { enum: REFERRAL_STATUSES, example: 'pending' } as never) status!: string;
  @Prop(String, { format: 'date-time' }) created_at!: string;
  @Prop(String, { format: 'date-time' }) updated_at!: string;
  @Prop(Boolean) is_cancelled!: boolean;
  @Prop(Boolean) is_completed!: boolean;
}

export class ReferralCodeDto {
  @Prop(String, {
    example: 'K7QM4XTB',
    description: 'Yours for good; share it: each friend who signs up with it earns you points.',
  })
  referral_code!: string;
}

/** Spec: Rewards summary. */
export class RewardsSummaryDto {
  @Prop(String, { format: 'uuid' }) user_id!: string;
  @Prop(String, { example: 'main' }) site_id!: string;
  // Current status.
  @Prop(Number, { example: 1250 }) current_points!: number;
  @Prop(Number, { example: 7 }) current_streak_months!: number;
  @Prop(Number, { example: 14 }) lifetime_months!: number;
  @Prop(Object, { example: { '3': '2026-03-01T00:00:00.000Z', '6': '2026-06-01T00:00:00.000Z' } })
  milestones_awarded!: Record<string, unknown>;
  // Discount rewards.
  @Prop(Number, { example: 3 }) discount_claims_count!: number;
  // Referral rewards: points from purchases and from signups; referrals that led to purchases.
  @Prop(Number, { example: 400 }) referral_points_awarded!: number;
  @Prop(Number, { example: 150 }) referral_signup_points_awarded!: number;
  @Prop(Number, { example: 3 }) referral_signups_count!: number;
  @Prop(Number, { example: 2 }) successful_referrals_count!: number;
  // Next bonus amounts.
  @Prop(Number, {
    nullable: true,
    example: 12,
    description: 'Streak months of the next loyalty milestone; null when none is left.',
  })
  next_milestone_at!: number | null;
  @Prop(Number, { example: 5, description: 'The discount-claims count that pays the next claim bonus.' })
  next_discount_bonus_at!: number;
  @Prop(Number, {
    example: 3,
    description: 'The successful-referrals count that pays the next purchase bonus.',
  })
  next_referral_bonus_at!: number;
  @Prop(Number, { example: 500, description: 'Points of the next loyalty milestone (0 when none is left).' })
  next_loyalty_bonus_amount!: number;
}
