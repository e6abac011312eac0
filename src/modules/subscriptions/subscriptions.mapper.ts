import type { SubscriptionDto } from './dto/subscription.dto.js';
import type { SubscriptionRow } from './subscriptions.repository.js';
import { subscriptionFlags } from './subscriptions.rules.js';

const iso = (d: Date | null): string | null => (d ? new Date(d).toISOString() : null);

/** The spec's Subscription, flags derived by `subscriptionFlags` (DESIGN §5). */
export function toSubscriptionDto(s: SubscriptionRow, now = new Date()): SubscriptionDto {
  return {
    ...base(s),
    ...subscriptionFlags(
      {
        status: s.status,
        trial_end_date: s.trial_end_date ? new Date(s.trial_end_date) : null,
        entry_credits_per_period: s.entry_credits_per_period,
        credits_used_this_period: s.credits_used_this_period,
        current_period_end: s.current_period_end ? new Date(s.current_period_end) : null,
        past_due_since: s.past_due_since ? new Date(s.past_due_since) : null,
      },
      now,
    ),
  };
}

/**
 * The Subscription nested in a payment transaction of the User record: the two gateway ids added, the
 * derived flags left out as the spec says (all but `is_trial_active`).
 */
export function toNestedSubscription(s: SubscriptionRow, now = new Date()): Record<string, unknown> {
  const trialEnd = s.trial_end_date ? new Date(s.trial_end_date) : null;
  return {
    ...base(s),
    is_trial_active: s.status === 'trialing' && trialEnd !== null && trialEnd > now,
    gatewayone_registration_id: s.gatewayone_registration_id,
    gatewayone_schedule_id: s.gatewayone_schedule_id,
  };
}

function base(s: SubscriptionRow) {
  return {
    id: s.id,
    user_id: s.user_id,
    site_id: s.site_id,
    tier: s.tier_name,
    tier_id: s.tier_id,
    status: s.status,
    amount_cents: s.amount_cents,
    currency: s.currency,
    billing_interval: s.billing_interval,
    payment_method: s.payment_method,
    auto_renew: s.auto_renew,
    credits_used_this_period: s.credits_used_this_period,
    entry_credits_per_period: s.entry_credits_per_period,
    current_period_start: iso(s.current_period_start),
    current_period_end: iso(s.current_period_end),
    next_billing_date: iso(s.next_billing_date),
    subscription_start_date: iso(s.subscription_start_date),
    trial_start_date: iso(s.trial_start_date),
    trial_end_date: iso(s.trial_end_date),
    cooling_off_expiry: iso(s.cooling_off_expiry),
    paused_until: iso(s.paused_until),
    cancelled_at: iso(s.cancelled_at),
    cancellation_reason: s.cancellation_reason,
    metadata: s.metadata,
    created_at: new Date(s.created_at).toISOString(),
    updated_at: new Date(s.updated_at).toISOString(),
  };
}
