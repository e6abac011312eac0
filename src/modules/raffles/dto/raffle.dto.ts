import { Prop } from '#app/common/validation/fields.js';

export class DiscountTierDto {
  @Prop('number', { example: 10, description: 'Percent off the single tickets.' }) discount!: number;
  @Prop('integer', { example: 5 }) min_quantity!: number;
}

export class UpsellDto {
  @Prop('number', { example: 5, description: 'The saving in major units at the current price.' })
  discount!: number;
  @Prop('number', { example: 20 }) percentage!: number;
  @Prop('integer', { example: 10, description: 'Legacy alias of `quantity`.' }) qty!: number;
  @Prop('integer', { example: 10 }) quantity!: number;
}

export class MailerEmailParamsDto {
  @Prop(String, { nullable: true }) brand_logo_url!: string | null;
  @Prop(String, { nullable: true }) brand_name!: string | null;
  @Prop(String, { nullable: true }) brand_site_url!: string | null;
  @Prop(String, { nullable: true }) color_accent!: string | null;
  @Prop(String, { nullable: true }) color_bg!: string | null;
  @Prop(String, { nullable: true }) color_button_text!: string | null;
  @Prop(String, { nullable: true }) color_footer_text!: string | null;
  @Prop(String, { nullable: true }) color_text_primary!: string | null;
  @Prop(String, { nullable: true }) currency!: string | null;
  @Prop(String, { nullable: true }) current_year!: string | null;
  @Prop(String, { nullable: true }) email_title!: string | null;
  @Prop(String, { nullable: true }) first_name!: string | null;
  @Prop(String, { nullable: true }) from_email!: string | null;
  @Prop(String, { nullable: true }) from_name!: string | null;
  @Prop(String, { nullable: true }) giveaway_name!: string | null;
  @Prop(String, { nullable: true }) language!: string | null;
  @Prop(Boolean, { nullable: true }) plural!: boolean | null;
  @Prop(String, { nullable: true }) reply_to_email!: string | null;
  @Prop(String, { nullable: true }) ticket_quantity!: string | null;
  @Prop(String, { nullable: true }) unsubscribe!: string | null;
  @Prop(String, { nullable: true }) unsubscribe_preferences!: string | null;
}

/**
 * Raffle entry, as nested in a raffle: the spec's Raffle entry, its `raffle` and `user` present and null (the
 * raffle is the one it is nested in; an entrant's User record is not the public's to read), as the winners'.
 */
export class RaffleEntryNestedDto {
  @Prop(String) id!: string;
  @Prop(String) raffle_id!: string;
  @Prop(String, {
    nullable: true,
    description:
      '`null` to all but staff: an account id, the same on every raffle, would let anyone follow an entrant (a named winner, through the draw proof’s entry) from raffle to raffle.',
  })
  user_id!: string | null;
  @Prop(String) site_id!: string;
  @Prop(String, { nullable: true }) ip_address!: string | null;
  @Prop(String, { nullable: true }) user_agent!: string | null;
  @Prop(String, { format: 'date-time' }) created_at!: string;
  @Prop('integer') entries_count!: number;
  @Prop('integer') points_spent!: number;
  @Prop('object', { nullable: true, description: 'Raffle: `null` (the one it is nested in).' }) raffle!: null;
  @Prop('object', { nullable: true, description: 'User: `null` (not expanded).' }) user!: null;
}

/**
 * Raffle winner (spec: its nested form), wherever it is answered: nested in a raffle, the draw's answer, the
 * unclaimed list, a claim. `user`, `entry` and `raffle` are present and null: never expanded (DESIGN §4 omits no
 * field; a winner's User record is not the admin's nor the public's to read whole).
 */
export class RaffleWinnerNestedDto {
  @Prop(String) id!: string;
  @Prop(String) raffle_id!: string;
  @Prop(String) entry_id!: string;
  @Prop(String) user_id!: string;
  @Prop(String) site_id!: string;
  @Prop(String, { nullable: true }) giveaway!: string | null;
  @Prop(String, { nullable: true }) giveaway_reference!: string | null;
  @Prop(String, { nullable: true }) prize_description!: string | null;
  @Prop(String, { nullable: true }) image!: string | null;
  @Prop(String, { format: 'date-time' }) date_won!: string;
  @Prop(String, { nullable: true, format: 'date-time' }) claimed_at!: string | null;
  @Prop(String, { format: 'date-time' }) created_at!: string;
  @Prop(Boolean) claimed!: boolean;
  @Prop('object', { nullable: true, description: 'User: `null` (not expanded).' }) user!: null;
  @Prop('object', { nullable: true, description: 'Raffle entry: `null` (not expanded).' }) entry!: null;
  @Prop('object', { nullable: true, description: 'Raffle: `null` (not expanded).' }) raffle!: null;
}

/** An instant-win prize and how many of its tickets are still to be won (DESIGN §6). */
export class InstantWinDto {
  @Prop(String, { example: '£100 voucher' }) prize!: string;
  @Prop('integer', { example: 5 }) count!: number;
  @Prop('integer', { example: 3, description: 'Not won yet: 0 once every ticket of it has been won.' })
  left!: number;
}

const text = { nullable: true } as const;

/** Raffle (spec), every field present; plus `site_id`, `tickets_left` and the draw commitment. */
export class RaffleDto {
  @Prop(String, { format: 'uuid' }) id!: string;
  @Prop(String, { example: 'main' }) site_id!: string;
  @Prop(String, { example: '64f1c0ffee' }) item_id!: string;
  @Prop(String, text) collection_id!: string | null;
  @Prop(String, text) locale_id!: string | null;
  @Prop(String, text) cms_site_id!: string | null;
  @Prop(String, { example: 'Win a camper van' }) name!: string;
  @Prop(String, text) slug!: string | null;
  @Prop(String, text) campaign_name!: string | null;
  @Prop(String, text) giveaway_type!: string | null;
  @Prop(String, text) description!: string | null;
  @Prop(String, text) long_description!: string | null;
  @Prop(String, text) short_teaser!: string | null;
  @Prop(String, text) details!: string | null;
  @Prop(String, text) hero_header!: string | null;
  @Prop(String, text) hero_description!: string | null;
  @Prop(String, text) cta_text!: string | null;
  @Prop(String, text) final_cta_heading!: string | null;
  @Prop(String, text) final_cta_description!: string | null;
  @Prop(String, text) main_image!: string | null;
  @Prop(String, text) image_gallery!: string | null;
  @Prop(String, text) quick_buy_options!: string | null;
  @Prop(String, text) quick_wins!: string | null;
  @Prop(String, text) what_you_can_win_1!: string | null;
  @Prop(String, text) what_you_can_win_2!: string | null;
  @Prop(String, text) what_you_can_win_3!: string | null;
  @Prop(String, text) what_you_can_win_4!: string | null;
  @Prop(String, text) worth_total!: string | null;
  @Prop(String, text) worth_subline!: string | null;
  @Prop(String, text) winner_names!: string | null;
  @Prop(String, text) last_person_who_brought!: string | null;
  @Prop(String, text) checkout_description!: string | null;
  @Prop(String, text) checkout_success_url!: string | null;
  @Prop(String, text) checkout_failure_url!: string | null;
  @Prop(String, { example: 'GBP' }) currency!: string;
  @Prop('number', { example: 2.5, description: 'Unit price in major units.' }) price_display!: number;
  @Prop('integer') points_required!: number;
  @Prop('integer', { nullable: true, description: 'Most tickets one user may hold; null = no cap.' })
  max_entries!: number | null;
  @Prop('integer') total_entries_available!: number;
  @Prop('integer', { description: 'Tickets taken, every way in.' }) current_entries!: number;
  @Prop('integer', { description: 'Tickets paid for.' }) entries_purchased!: number;
  @Prop('integer', { description: 'total_entries_available − current_entries.' }) tickets_left!: number;
  @Prop(Boolean) points_enabled!: boolean;
  @Prop('number', { nullable: true }) points_multiplier!: number | null;
  @Prop(Boolean) active!: boolean;
  @Prop(Boolean) allow_free_entries!: boolean;
  @Prop(Boolean) archived!: boolean;
  @Prop(Boolean) closed!: boolean;
  @Prop(Boolean) draft!: boolean;
  @Prop(Boolean, { description: 'Running now and tickets left.' }) can_join!: boolean;
  @Prop(Boolean, { description: 'Published, on, not closed/drawn/archived, now within the dates.' })
  is_active!: boolean;
  @Prop(Boolean) is_drawn!: boolean;
  @Prop(String, { format: 'date-time' }) start_date!: string;
  @Prop(String, { format: 'date-time' }) end_date!: string;
  @Prop(String, { nullable: true, format: 'date-time' }) drawn_at!: string | null;
  @Prop(String, { nullable: true, format: 'date-time' }) published_on!: string | null;
  @Prop(String, { format: 'date-time' }) created_at!: string;
  @Prop(String, { format: 'date-time' }) updated_at!: string;
  @Prop(String, text) gatewaytwo_product_id!: string | null;
  @Prop([DiscountTierDto]) discount_tiers!: DiscountTierDto[];
  @Prop([UpsellDto]) upsells!: UpsellDto[];
  @Prop(MailerEmailParamsDto) mailer_email_params!: MailerEmailParamsDto;
  @Prop(String, { nullable: true, description: 'The admin who created it.' }) created_by!: string | null;
  @Prop(String, {
    nullable: true,
    description: 'sha256 (hex) of the secret draw seed, committed at publication; null while a draft.',
  })
  draw_seed_hash!: string | null;
  @Prop(String, {
    nullable: true,
    description: 'The beacon round announced for the draw (see the proof’s `beacon_round`); null: none.',
  })
  draw_beacon_round!: string | null;
  @Prop([RaffleEntryNestedDto]) entries!: RaffleEntryNestedDto[];
  @Prop([RaffleWinnerNestedDto]) winners!: RaffleWinnerNestedDto[];
  @Prop([InstantWinDto], { description: 'Instant-win prizes, with how many are left (the rest are gone).' })
  instant_wins!: InstantWinDto[];
}

/** `GET /raffles/{id}/quote`: the server's price of an order, in cents (DESIGN §6). */
export class QuoteDto {
  @Prop('integer', { example: 2388, description: 'What the order costs.' }) amount_cents!: number;
  @Prop(String, { example: 'GBP' }) currency!: string;
  @Prop('integer', { example: 199, description: 'One ticket’s price.' }) unit_cents!: number;
  @Prop('integer', { example: 597, description: 'Saved against every ticket at the unit price.' })
  discount_cents!: number;
  @Prop('integer', { example: 15, description: 'Tickets bought: single tickets plus bundles.' })
  tickets!: number;
  @Prop('number', {
    nullable: true,
    example: 10,
    description: 'The tier’s percent applied to single tickets.',
  })
  tier_discount!: number | null;
}
