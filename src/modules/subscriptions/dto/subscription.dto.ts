import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { ApiProperty, OmitType } from '@nestjs/swagger';
import { PageQueryDto } from '#app/common/pagination/pagination.js';
import { Bool, NotNull, Prop, Str } from '#app/common/validation/fields.js';
import { IsTimestamp } from '#app/common/validation/timestamp.js';
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '../subscriptions.rules.js';

const date = (description?: string) =>
  Prop(String, { nullable: true, format: 'date-time', ...(description ? { description } : {}) });

/** The spec's Subscription (endpoints 11, 13, 14 and every subscription answer). */
export class SubscriptionDto {
  @Prop(String) id!: string;
  @Prop(String) user_id!: string;
  @Prop(String) site_id!: string;
  @Prop(String, { description: "The tier's name.", example: 'gold' }) tier!: string;
  @Prop(String, { description: 'The tier’s id (beyond the spec).' }) tier_id!: string;
  @Prop(String, { enum: SUBSCRIPTION_STATUSES, example: 'active' } as never) status!: string;
  @Prop('integer', { example: 999 }) amount_cents!: number;
  @Prop(String, { example: 'GBP' }) currency!: string;
  @Prop(String, { example: 'month' }) billing_interval!: string;
  @Prop(String, { example: 'card' }) payment_method!: string;
  @Prop(Boolean) auto_renew!: boolean;
  @Prop('integer', { description: 'Credits left this period: 0 unless the subscription is active.' })
  available_credits!: number;
  @Prop('integer') credits_used_this_period!: number;
  @Prop('integer') entry_credits_per_period!: number;
  @date() current_period_start!: string | null;
  @date() current_period_end!: string | null;
  @date() next_billing_date!: string | null;
  @date() subscription_start_date!: string | null;
  @date() trial_start_date!: string | null;
  @date() trial_end_date!: string | null;
  @date('Until then a cancellation refunds the period less the credits spent (14 days from each start).')
  cooling_off_expiry!: string | null;
  @date() paused_until!: string | null;
  @date() cancelled_at!: string | null;
  @Prop(String, { nullable: true }) cancellation_reason!: string | null;
  @Prop(Boolean) can_be_cancelled!: boolean;
  @Prop(Boolean) is_active!: boolean;
  @Prop(Boolean) is_cancelled!: boolean;
  @Prop(Boolean) is_in_trial!: boolean;
  @Prop(Boolean) is_trial_active!: boolean;
  @Prop(Boolean) is_paused!: boolean;
  @Prop('object', { description: '`history`: every change, who made it, when and why.' })
  metadata!: Record<string, unknown>;
  @Prop(String, { format: 'date-time' }) created_at!: string;
  @Prop(String, { format: 'date-time' }) updated_at!: string;
}

/**
 * The Subscription nested in a payment transaction of the User record (spec): the two gateway ids added, the
 * derived flags but `is_trial_active` left out (`toNestedSubscription`).
 */
export class NestedSubscriptionDto extends OmitType(SubscriptionDto, [
  'available_credits',
  'can_be_cancelled',
  'is_active',
  'is_cancelled',
  'is_in_trial',
  'is_paused',
] as const) {
  @Prop(String, { nullable: true }) gatewayone_registration_id!: string | null;
  @Prop(String, { nullable: true }) gatewayone_schedule_id!: string | null;
}

/** `POST /subscriptions`. */
export class CreateSubscriptionDto {
  @IsUUID('all', { message: 'tier_id must be a tier id' })
  @Str({
    required: true,
    example: '3f6c2a0e-8e1b-4d7a-9c55-2b1f0c9d4e11',
    description: 'An active tier of your site.',
  })
  tier_id!: string;

  @NotNull()
  @IsIn(['card'])
  @ApiProperty({ enum: ['card'], required: false, description: 'Memberships are paid by card (gatewayone).' })
  payment_method?: 'card';
}

/** 201 to `POST /subscriptions`: the new (incomplete) subscription and where to pay. */
export class CreatedSubscriptionDto {
  @Prop(SubscriptionDto) subscription!: SubscriptionDto;
  @Prop(String, { description: 'The hosted payment form’s id (gatewayone).' }) checkout_id!: string;
  @Prop(String, { nullable: true, description: 'Where the member enters their card.' })
  checkout_url!: string | null;
}

/** 201 to `POST /subscriptions/{id}/card`. */
export class CardCheckoutDto {
  @Prop(String) checkout_id!: string;
  @Prop(String, { nullable: true }) checkout_url!: string | null;
}

/** `POST /subscriptions/{id}/cancel` (the member's own). */
export class CancelOwnDto {
  @Str({ required: true, min: 1, max: 500, example: 'Too many e-mails' }) reason!: string;
  @Bool({
    description:
      'true: cancelled now. Inside the 14-day cooling-off window a cancellation always ends at once and refunds ' +
      'the period less the credits spent; outside it, without `immediate`, it runs to the end of the period.',
  })
  immediate?: boolean;
}

/** Endpoint 13: `POST /admin/subscriptions/cancel`. */
export class AdminCancelDto extends CancelOwnDto {
  @IsUUID('all', { message: 'subscription_id must be a subscription id' })
  @Str({ required: true, example: '5b0e7a52-6f8e-4c0b-a3c1-8d9e2f7a1b34' })
  subscription_id!: string;
}

/** Endpoint 14: `POST /admin/subscriptions/upgrade`. */
export class UpgradeDto {
  @IsUUID('all', { message: 'subscription_id must be a subscription id' })
  @Str({ required: true, example: '5b0e7a52-6f8e-4c0b-a3c1-8d9e2f7a1b34' })
  subscription_id!: string;

  @Str({
    required: true,
    min: 1,
    max: 100,
    example: 'platinum',
    description: 'A tier of the same site, by name or id.',
  })
  new_tier!: string;

  @Str({ required: true, min: 1, max: 500, example: 'Member asked for more entries' }) reason!: string;
}

/** `POST /admin/subscriptions/pause`. */
export class PauseDto {
  @IsUUID('all', { message: 'subscription_id must be a subscription id' })
  @Str({ required: true, example: '5b0e7a52-6f8e-4c0b-a3c1-8d9e2f7a1b34' })
  subscription_id!: string;

  @IsTimestamp('paused_until must be an ISO 8601 date-time')
  @Str({
    required: true,
    example: '2030-02-01T00:00:00Z',
    description: 'In the future, at most a year ahead.',
  })
  paused_until!: string;

  @Str({ required: true, min: 1, max: 500, example: 'Travelling for a month' }) reason!: string;
}

/** `POST /admin/subscriptions/resume`. */
export class ResumeDto {
  @IsUUID('all', { message: 'subscription_id must be a subscription id' })
  @Str({ required: true, example: '5b0e7a52-6f8e-4c0b-a3c1-8d9e2f7a1b34' })
  subscription_id!: string;

  @Str({ required: true, min: 1, max: 500, example: 'Back home' }) reason!: string;
}

/** `GET /admin/subscriptions`. */
export class AdminSubscriptionsQueryDto extends PageQueryDto {
  @Str({ max: 64, description: 'Defaults to your own site; only a superadmin may name another.' })
  site_id?: string;

  @IsOptional()
  @IsIn(SUBSCRIPTION_STATUSES)
  @ApiProperty({ enum: SUBSCRIPTION_STATUSES, required: false })
  status?: SubscriptionStatus;

  @IsOptional()
  @IsUUID('all', { message: 'user_id must be a user id' })
  @ApiProperty({ required: false, format: 'uuid' })
  user_id?: string;
}
