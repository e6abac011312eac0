import type { TierDto } from './dto/tier.dto.js';
import type { SubscriptionTier } from './entities/subscription-tier.entity.js';

export function toTierDto(t: SubscriptionTier): TierDto {
  return {
    id: t.id,
    site_id: t.site_id,
    name: t.name,
    display_name: t.display_name,
    description: t.description,
    active: t.active,
    amount_cents: t.amount_cents,
    currency: t.currency,
    entry_credits_per_period: t.entry_credits_per_period,
    features: t.features,
    sort_order: t.sort_order,
    image_url: t.image_url,
    billing_interval: t.billing_interval,
    trial_days: t.trial_days,
    created_at: t.created_at.toISOString(),
    updated_at: t.updated_at.toISOString(),
  };
}
