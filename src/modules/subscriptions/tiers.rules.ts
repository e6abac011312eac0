import { sentFields } from '#app/common/validation/sent-fields.js';
import type { CreateTierDto, UpdateTierDto } from './dto/tier.dto.js';
import type { SubscriptionTier } from './entities/subscription-tier.entity.js';

/** Fields a tier cannot be without: `null` in an update is refused rather than stored. */
export const TIER_REQUIRED_FIELDS = [
  'name',
  'amount_cents',
  'currency',
  'active',
  'entry_credits_per_period',
  'features',
  'sort_order',
  'billing_interval',
  'trial_days',
] as const;

/** Tier names are compared without case or surrounding spaces ("Gold " and "gold" are one name). */
export function normalizeTierName(name: string): string {
  return name.trim().toLowerCase();
}

/** The stored shape of a new tier, defaults applied. */
export function newTier(
  siteId: string,
  body: CreateTierDto,
): Omit<SubscriptionTier, 'id' | 'created_at' | 'updated_at'> {
  return {
    site_id: siteId,
    name: body.name.trim(),
    name_normalized: normalizeTierName(body.name),
    display_name: body.display_name ?? null,
    description: body.description ?? null,
    active: body.active ?? true,
    amount_cents: body.amount_cents,
    currency: body.currency,
    billing_interval: body.billing_interval ?? 'month',
    trial_days: body.trial_days ?? 0,
    entry_credits_per_period: body.entry_credits_per_period ?? 0,
    features: body.features ?? [],
    sort_order: body.sort_order ?? 0,
    image_url: body.image_url ?? null,
  };
}

/** The column changes an update asks for: only the fields sent; a new name also renews its key. */
export function tierChanges(body: UpdateTierDto): Partial<SubscriptionTier> {
  const changes = sentFields(body) as Partial<SubscriptionTier>;
  if (typeof body.name === 'string') {
    changes.name = body.name.trim();
    changes.name_normalized = normalizeTierName(body.name);
  }
  return changes;
}
