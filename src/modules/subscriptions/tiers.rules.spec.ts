import type { CreateTierDto } from './dto/tier.dto.js';
import { newTier, normalizeTierName, tierChanges } from './tiers.rules.js';

describe('tier names', () => {
  it('compare without case or surrounding spaces', () => {
    expect(normalizeTierName('  Gold ')).toBe('gold');
    expect(normalizeTierName('GOLD')).toBe(normalizeTierName('gold'));
  });
});

describe('newTier', () => {
  it('fills the defaults: active, monthly, no trial, no credits, no features, first in order', () => {
    const body: CreateTierDto = { name: ' Gold ', amount_cents: 999, currency: 'GBP' };
    const tier = newTier('site-a', body);
    expect(tier).toEqual({
      site_id: 'site-a',
      name: 'Gold',
      name_normalized: 'gold',
      display_name: null,
      description: null,
      active: true,
      amount_cents: 999,
      currency: 'GBP',
      billing_interval: 'month',
      trial_days: 0,
      entry_credits_per_period: 0,
      features: [],
      sort_order: 0,
      image_url: null,
    });
  });
});

describe('tierChanges', () => {
  it('changes only the fields sent, null included, and renews the name key with the name', () => {
    expect(tierChanges({ amount_cents: 5, description: undefined })).toEqual({ amount_cents: 5 });
    expect(tierChanges({ description: null as unknown as string })).toEqual({ description: null });
    expect(tierChanges({ name: 'Silver ' })).toEqual({ name: 'Silver', name_normalized: 'silver' });
    expect(tierChanges({})).toEqual({});
  });
});
