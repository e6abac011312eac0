import { OmitType, PartialType } from '@nestjs/swagger';
import { IsOptional, IsUrl, Matches } from 'class-validator';
import { Bool, Int, Line, Nested, Num, Str, WebUrl, WebUrlList } from '#app/common/validation/fields.js';
import { Currency, CurrencyDecimals, MaxDecimals } from '#app/common/validation/money-fields.js';
import { NestedArray } from '#app/common/validation/nested-array.js';
import { IsTimestamp } from '#app/common/validation/timestamp.js';
import { PERCENT_DECIMALS } from '../pricing.rules.js';

const MAX_TICKETS = 10_000_000;
const url = (field: string): PropertyDecorator =>
  IsUrl(
    { require_protocol: true, protocols: ['http', 'https'] },
    { message: `${field} must be an http(s) URL` },
  );
const notBlank = (field: string): PropertyDecorator =>
  Matches(/\S/, { message: `${field} must not be blank` });

export class DiscountTierInputDto {
  @MaxDecimals(PERCENT_DECIMALS)
  @Num({ required: true, min: 0, max: 100, example: 10, description: 'Percent off the single tickets.' })
  discount!: number;

  @Int({
    required: true,
    min: 1,
    max: MAX_TICKETS,
    example: 5,
    description: 'Applies from this many tickets.',
  })
  min_quantity!: number;
}

export class InstantWinInputDto {
  @notBlank('prize')
  @Str({ required: true, max: 200, example: '£100 voucher', description: 'What the winning ticket wins.' })
  prize!: string;

  @Int({ required: true, min: 1, max: 1000, example: 5, description: 'How many tickets win it.' })
  count!: number;
}

export class UpsellInputDto {
  @Int({ min: 1, max: MAX_TICKETS, example: 10, description: 'Tickets in the bundle.' })
  quantity?: number;

  @Int({ min: 1, max: MAX_TICKETS, example: 10, description: 'Legacy alias of `quantity`; must agree.' })
  qty?: number;

  @MaxDecimals(PERCENT_DECIMALS)
  @Num({ required: true, min: 0, max: 100, example: 20, description: 'Percent off the unit price.' })
  percentage!: number;

  @Num({ min: 0, description: 'Ignored: the server recomputes the saving from the price.' })
  discount?: number;
}

/** Branding for the raffle's e-mails (spec: `mailer_email_params`). */
export class MailerEmailParamsInputDto {
  @Str({ max: 1000 }) brand_logo_url?: string;
  // The sender's display name when the raffle gives no from_name: a header, so one line.
  @Line({ max: 200 }) brand_name?: string;
  @Str({ max: 1000 }) brand_site_url?: string;
  @Str({ max: 50, example: '#ff6600' }) color_accent?: string;
  @Str({ max: 50 }) color_bg?: string;
  @Str({ max: 50 }) color_button_text?: string;
  @Str({ max: 50 }) color_footer_text?: string;
  @Str({ max: 50 }) color_text_primary?: string;
  @Str({ max: 10 }) currency?: string;
  @Str({ max: 10 }) current_year?: string;
  @Str({ max: 500 }) email_title?: string;
  @Str({ max: 200 }) first_name?: string;
  @Str({ max: 254 }) from_email?: string;
  @Line({ max: 200 }) from_name?: string;
  @Str({ max: 200 }) giveaway_name?: string;
  @Str({ max: 20 }) language?: string;
  @Bool() plural?: boolean;
  @Str({ max: 254 }) reply_to_email?: string;
  @Str({ max: 20 }) ticket_quantity?: string;
  @Str({ max: 1000 }) unsubscribe?: string;
  @Str({ max: 1000 }) unsubscribe_preferences?: string;
}

/** `POST /admin/raffles`: a draft. Optional text fields take `null` (in updates) to clear them. */
export class CreateRaffleDto {
  @Str({ max: 64, description: 'Defaults to your own site; only a superadmin may name another.' })
  site_id?: string;

  @notBlank('item_id')
  @Str({
    nullable: false,
    min: 1,
    max: 100,
    example: '64f1c0ffee',
    description: 'Unique per site; defaults to the raffle’s id.',
  })
  item_id?: string;

  @Str({ max: 100 }) collection_id?: string;
  @Str({ max: 100 }) locale_id?: string;
  @Str({ max: 100, description: 'The website builder’s site reference.' }) cms_site_id?: string;

  @notBlank('name')
  @Line({ required: true, min: 1, max: 200, example: 'Win a camper van' })
  name!: string;

  @Str({ max: 200, example: 'win-a-camper-van' }) slug?: string;
  @Str({ max: 200 }) campaign_name?: string;
  @Str({ max: 50, example: 'standard' }) giveaway_type?: string;

  @Str({ max: 20000 }) description?: string;
  @Str({ max: 50000 }) long_description?: string;
  @Str({ max: 2000 }) short_teaser?: string;
  @Str({ max: 20000 }) details?: string;
  @Str({ max: 2000 }) hero_header?: string;
  @Str({ max: 5000 }) hero_description?: string;
  @Str({ max: 500 }) cta_text?: string;
  @Str({ max: 2000 }) final_cta_heading?: string;
  @Str({ max: 5000 }) final_cta_description?: string;
  @WebUrl({ max: 2000 }) main_image?: string;
  @WebUrlList({ max: 20000 }) image_gallery?: string;
  @Str({ max: 5000 }) quick_buy_options?: string;
  @Str({ max: 5000 }) quick_wins?: string;
  @Str({ max: 2000 }) what_you_can_win_1?: string;
  @Str({ max: 2000 }) what_you_can_win_2?: string;
  @Str({ max: 2000 }) what_you_can_win_3?: string;
  @Str({ max: 2000 }) what_you_can_win_4?: string;
  @Str({ max: 200, example: '£45,000' }) worth_total?: string;
  @Str({ max: 500 }) worth_subline?: string;
  @Line({
    max: 200,
    example: 'drand quicknet round 12345678',
    description:
      'The public random value the draw will take (a future round of a randomness beacon, as its source and ' +
      'round), announced before the close: the draw then needs that round’s value as its `beacon`, and takes ' +
      'no beacon from a raffle that announced none. Final at the close.',
  })
  draw_beacon_round?: string;
  @Str({ max: 500 }) last_person_who_brought?: string;
  @Str({ max: 2000 }) checkout_description?: string;

  @IsOptional()
  @url('checkout_success_url')
  @Str({ max: 1000 })
  checkout_success_url?: string;

  @IsOptional()
  @url('checkout_failure_url')
  @Str({ max: 1000 })
  checkout_failure_url?: string;

  @Str({ max: 200 }) gatewaytwo_product_id?: string;

  @Currency({ required: true })
  currency!: string;

  @CurrencyDecimals('currency')
  @Num({
    required: true,
    min: 0,
    max: 1_000_000,
    example: 2.5,
    description:
      'Unit price in major units, with no more decimals than the currency has (2.50 GBP, 500 JPY).',
  })
  price_display!: number;

  @Int({
    nullable: false,
    min: 0,
    max: MAX_TICKETS,
    example: 100,
    description: 'Points per entry; default 0.',
  })
  points_required?: number;

  @Bool({ nullable: false, description: 'Default false.' }) points_enabled?: boolean;

  @MaxDecimals(PERCENT_DECIMALS)
  @Num({
    min: 0,
    max: 1000,
    example: 1.5,
    description: 'Multiplies the points a purchase earns where points_enabled; 0 earns none; null = 1.',
  })
  points_multiplier?: number;

  @Int({
    min: 1,
    max: MAX_TICKETS,
    example: 50,
    description: 'Most tickets one user may hold; null = no cap.',
  })
  max_entries?: number;

  @Int({ required: true, min: 1, max: MAX_TICKETS, example: 10000 })
  total_entries_available!: number;

  @Bool({ nullable: false, description: 'Default false: the free (no-purchase) route.' })
  allow_free_entries?: boolean;

  @IsTimestamp('start_date must be an ISO 8601 date-time')
  @Str({ required: true, max: 40, example: '2027-01-01T00:00:00Z' })
  start_date!: string;

  @IsTimestamp('end_date must be an ISO 8601 date-time')
  @Str({ required: true, max: 40, example: '2027-02-01T00:00:00Z', description: 'After start_date.' })
  end_date!: string;

  @NestedArray(() => DiscountTierInputDto, { nullable: false, maxItems: 20 })
  discount_tiers?: DiscountTierInputDto[];

  @NestedArray(() => UpsellInputDto, {
    nullable: false,
    maxItems: 20,
    description: 'Bundle quantities must differ.',
  })
  upsells?: UpsellInputDto[];

  @Nested(() => MailerEmailParamsInputDto, { nullable: false })
  mailer_email_params?: MailerEmailParamsInputDto;

  @NestedArray(() => InstantWinInputDto, {
    maxItems: 20,
    description:
      'Instant-win prizes: their winning tickets are drawn from the seed at publication, so they can be set ' +
      'only while a draft. An entry whose tickets cover one wins it at once.',
  })
  instant_wins?: InstantWinInputDto[];
}

/** `PUT /admin/raffles/{id}`: only the fields sent change. Drafting, closing and drawing have their own routes. */
export class UpdateRaffleDto extends PartialType(OmitType(CreateRaffleDto, ['site_id'] as const)) {
  @Bool({ nullable: false, description: 'Pause (false) or resume (true) a published raffle.' })
  active?: boolean;

  @Bool({ nullable: false, description: 'Archived raffles leave the public list.' })
  archived?: boolean;
}
