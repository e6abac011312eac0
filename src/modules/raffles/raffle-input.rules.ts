import { INT4_MAX } from '#app/common/column-limits.js';
import { majorToMinor, MoneyError, minorToMajor } from '#app/common/money.js';
import type { CreateRaffleDto, UpdateRaffleDto } from './dto/raffle-input.dto.js';
import type { DiscountTier, MailerEmailParams, Raffle } from './entities/raffle.entity.js';
import { normalizeUpsells, PricingError } from './pricing.rules.js';
import type { NewRaffle } from './raffles.repository.js';

/** Text fields copied as sent (null clears them in an update). */
const TEXT_FIELDS = [
  'collection_id',
  'locale_id',
  'cms_site_id',
  'slug',
  'campaign_name',
  'giveaway_type',
  'description',
  'long_description',
  'short_teaser',
  'details',
  'hero_header',
  'hero_description',
  'cta_text',
  'final_cta_heading',
  'final_cta_description',
  'main_image',
  'image_gallery',
  'quick_buy_options',
  'quick_wins',
  'what_you_can_win_1',
  'what_you_can_win_2',
  'what_you_can_win_3',
  'what_you_can_win_4',
  'worth_total',
  'worth_subline',
  'draw_beacon_round',
  'last_person_who_brought',
  'checkout_description',
  'checkout_success_url',
  'checkout_failure_url',
  'gatewaytwo_product_id',
] as const;

/** Plain values copied as sent (their validity already checked by the DTO). */
const PLAIN_FIELDS = [
  'name',
  'currency',
  'points_required',
  'points_enabled',
  'points_multiplier',
  'max_entries',
  'total_entries_available',
  'allow_free_entries',
  'active',
  'archived',
] as const;

const tiersOf = (tiers: ReadonlyArray<DiscountTier>): DiscountTier[] =>
  tiers.map((t) => ({ discount: t.discount, min_quantity: t.min_quantity }));

/** Keys sent overwrite, `null` clears one, keys not sent stay. */
function mergeParams(current: MailerEmailParams, sent: object): MailerEmailParams {
  const merged = new Map(Object.entries(current));
  for (const [key, value] of Object.entries(sent) as Array<[string, string | boolean | null | undefined]>) {
    if (value === null) merged.delete(key);
    else if (value !== undefined) merged.set(key, value);
  }
  return Object.fromEntries(merged);
}

/** Instant-win prizes as stored: just the prize and its count. */
function instantWinsOf(
  sent: Array<{ prize: string; count: number }>,
): Array<{ prize: string; count: number }> {
  return sent.map((w) => ({ prize: w.prize.trim(), count: w.count }));
}

/** `price_cents` is a PostgreSQL integer (1,000,000 in a currency of four decimals would not fit). */
const MAX_PRICE_MINOR = INT4_MAX;

/**
 * `price_display` in the currency's minor units (a ¥500 ticket is 500, a £2.50 one 250): the unit the
 * gateways charge in. More decimals than the currency has (¥500.5) is a 400 on `price_display`.
 */
function priceIn(display: number, currency: string): number {
  try {
    const minor = majorToMinor(display, currency);
    if (minor > MAX_PRICE_MINOR)
      throw new MoneyError(`${currency} ${display} is more than a ticket can cost`);
    return minor;
  } catch (error) {
    if (!(error instanceof MoneyError)) throw error;
    throw new PricingError(
      400,
      'VALIDATION_FAILED',
      'price_display',
      `price_display ${display} cannot be charged in ${currency}: ${error.message}`,
    );
  }
}

/**
 * The stored price after an update. A new currency keeps the price shown (2.50 GBP becomes 2.50 EUR),
 * as when every currency was kept in hundredths, unless a new `price_display` comes with it.
 */
function updatedPrice(current: Raffle, body: UpdateRaffleDto): number | undefined {
  const currency = body.currency ?? current.currency;
  if (body.price_display != null) return priceIn(body.price_display, currency);
  if (currency === current.currency) return undefined;
  return priceIn(minorToMajor(current.price_cents, current.currency), currency);
}

/** The stored shape of a new draft. `id` is chosen here so `item_id` can default to it. */
export function newRaffle(id: string, siteId: string, createdBy: string, body: CreateRaffleDto): NewRaffle {
  const priceCents = priceIn(body.price_display, body.currency);
  const row: Record<string, unknown> = {};
  for (const key of TEXT_FIELDS) row[key] = body[key] ?? null;
  return {
    ...(row as Pick<Raffle, (typeof TEXT_FIELDS)[number]>),
    id,
    site_id: siteId,
    item_id: body.item_id ?? id,
    name: body.name,
    currency: body.currency,
    price_cents: priceCents,
    points_required: body.points_required ?? 0,
    points_enabled: body.points_enabled ?? false,
    points_multiplier: body.points_multiplier ?? null,
    max_entries: body.max_entries ?? null,
    total_entries_available: body.total_entries_available,
    active: false,
    allow_free_entries: body.allow_free_entries ?? false,
    archived: false,
    closed: false,
    draft: true,
    is_drawn: false,
    start_date: new Date(body.start_date),
    end_date: new Date(body.end_date),
    drawn_at: null,
    // Written by the draw alone (`DrawService`): typed names would show winners nobody drew.
    winner_names: null,
    published_on: null,
    closed_at: null,
    discount_tiers: tiersOf(body.discount_tiers ?? []),
    upsells: normalizeUpsells(priceCents, body.currency, body.upsells ?? []),
    mailer_email_params: mergeParams({}, body.mailer_email_params ?? {}),
    instant_wins: instantWinsOf(body.instant_wins ?? []),
    created_by: createdBy,
  };
}

/**
 * The column changes an update asks for: only the fields sent. A new price or currency also recomputes
 * the bundles' displayed savings, which depend on it.
 */
export function raffleChanges(current: Raffle, body: UpdateRaffleDto): Partial<Raffle> {
  const changes: Record<string, unknown> = {};
  for (const key of [...TEXT_FIELDS, ...PLAIN_FIELDS, 'item_id'] as const)
    if (body[key] !== undefined) changes[key] = body[key];
  const out = changes as Partial<Raffle>;
  const price = updatedPrice(current, body);
  if (price !== undefined) out.price_cents = price;
  if (body.start_date != null) out.start_date = new Date(body.start_date);
  if (body.end_date != null) out.end_date = new Date(body.end_date);
  if (body.discount_tiers != null) out.discount_tiers = tiersOf(body.discount_tiers);
  if (body.upsells != null || out.price_cents !== undefined)
    out.upsells = normalizeUpsells(
      out.price_cents ?? current.price_cents,
      out.currency ?? current.currency,
      body.upsells ?? current.upsells,
    );
  if (body.instant_wins != null) out.instant_wins = instantWinsOf(body.instant_wins);
  if (body.mailer_email_params != null)
    out.mailer_email_params = mergeParams(current.mailer_email_params, body.mailer_email_params);
  return out;
}
