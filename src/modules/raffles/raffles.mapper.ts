import { minorToMajor } from '#app/common/money.js';
import type {
  MailerEmailParamsDto,
  QuoteDto,
  RaffleDto,
  RaffleEntryNestedDto,
  RaffleWinnerNestedDto,
} from './dto/raffle.dto.js';
import type { MailerEmailParams, Raffle } from './entities/raffle.entity.js';
import type { OrderPrice } from './pricing.rules.js';
import { canJoin, isRunning, ticketsLeft } from './raffles.rules.js';

export const MAILER_PARAM_KEYS = [
  'brand_logo_url',
  'brand_name',
  'brand_site_url',
  'color_accent',
  'color_bg',
  'color_button_text',
  'color_footer_text',
  'color_text_primary',
  'currency',
  'current_year',
  'email_title',
  'first_name',
  'from_email',
  'from_name',
  'giveaway_name',
  'language',
  'plural',
  'reply_to_email',
  'ticket_quantity',
  'unsubscribe',
  'unsubscribe_preferences',
] as const;

export interface RaffleRelations {
  entries: RaffleEntryNestedDto[];
  winners: RaffleWinnerNestedDto[];
  /** Instant-win tickets won so far, by prize. */
  instantWon: Map<string, number>;
}

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** Every key of the spec's `mailer_email_params`, null where unset. */
function mailerParams(stored: MailerEmailParams): MailerEmailParamsDto {
  const out: Record<string, string | boolean | null> = {};
  for (const key of MAILER_PARAM_KEYS) out[key] = stored[key] ?? null;
  return out as unknown as MailerEmailParamsDto;
}

/**
 * The one place a raffle becomes a response. The draw seed is not on the entity unless asked for,
 * and never copied here: it cannot leak by a new route forgetting to strip it.
 */
export function toRaffleDto(r: Raffle, now: Date, relations: RaffleRelations): RaffleDto {
  return {
    id: r.id,
    site_id: r.site_id,
    item_id: r.item_id,
    collection_id: r.collection_id,
    locale_id: r.locale_id,
    cms_site_id: r.cms_site_id,
    name: r.name,
    slug: r.slug,
    campaign_name: r.campaign_name,
    giveaway_type: r.giveaway_type,
    description: r.description,
    long_description: r.long_description,
    short_teaser: r.short_teaser,
    details: r.details,
    hero_header: r.hero_header,
    hero_description: r.hero_description,
    cta_text: r.cta_text,
    final_cta_heading: r.final_cta_heading,
    final_cta_description: r.final_cta_description,
    main_image: r.main_image,
    image_gallery: r.image_gallery,
    quick_buy_options: r.quick_buy_options,
    quick_wins: r.quick_wins,
    what_you_can_win_1: r.what_you_can_win_1,
    what_you_can_win_2: r.what_you_can_win_2,
    what_you_can_win_3: r.what_you_can_win_3,
    what_you_can_win_4: r.what_you_can_win_4,
    worth_total: r.worth_total,
    worth_subline: r.worth_subline,
    winner_names: r.winner_names,
    last_person_who_brought: r.last_person_who_brought,
    checkout_description: r.checkout_description,
    checkout_success_url: r.checkout_success_url,
    checkout_failure_url: r.checkout_failure_url,
    currency: r.currency,
    price_display: minorToMajor(r.price_cents, r.currency),
    points_required: r.points_required,
    max_entries: r.max_entries,
    total_entries_available: r.total_entries_available,
    current_entries: r.current_entries,
    entries_purchased: r.entries_purchased,
    tickets_left: ticketsLeft(r),
    points_enabled: r.points_enabled,
    points_multiplier: r.points_multiplier,
    active: r.active,
    allow_free_entries: r.allow_free_entries,
    archived: r.archived,
    closed: r.closed,
    draft: r.draft,
    can_join: canJoin(r, now),
    is_active: isRunning(r, now),
    is_drawn: r.is_drawn,
    start_date: r.start_date.toISOString(),
    end_date: r.end_date.toISOString(),
    drawn_at: iso(r.drawn_at),
    published_on: iso(r.published_on),
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
    gatewaytwo_product_id: r.gatewaytwo_product_id,
    discount_tiers: r.discount_tiers.map((t) => ({ discount: t.discount, min_quantity: t.min_quantity })),
    upsells: r.upsells.map((u) => ({
      discount: u.discount,
      percentage: u.percentage,
      qty: u.qty,
      quantity: u.quantity,
    })),
    mailer_email_params: mailerParams(r.mailer_email_params),
    created_by: r.created_by,
    draw_seed_hash: r.draw_seed_hash,
    draw_beacon_round: r.draw_beacon_round,
    entries: relations.entries,
    winners: relations.winners,
    instant_wins: r.instant_wins.map((w) => ({
      prize: w.prize,
      count: w.count,
      left: Math.max(0, w.count - (relations.instantWon.get(w.prize) ?? 0)),
    })),
  };
}

export function toQuoteDto(p: OrderPrice): QuoteDto {
  return {
    amount_cents: p.amount_cents,
    currency: p.currency,
    unit_cents: p.unit_cents,
    discount_cents: p.discount_cents,
    tickets: p.tickets,
    tier_discount: p.tier?.discount ?? null,
  };
}
