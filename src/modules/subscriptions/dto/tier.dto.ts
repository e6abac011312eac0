import { ApiProperty, OmitType, PartialType } from '@nestjs/swagger';
import { IsIn, IsOptional, IsUrl, Matches } from 'class-validator';
import { PageQueryDto } from '#app/common/pagination/pagination.js';
import { Currency } from '#app/common/validation/money-fields.js';
import { Bool, Int, Line, NotNull, Prop, Str, StrArray } from '#app/common/validation/fields.js';
import { BILLING_INTERVALS, type BillingInterval } from '../entities/subscription-tier.entity.js';

const MAX_CENTS = 100_000_000;
const MAX_CREDITS = 100_000;

/** `POST /admin/subscription-tiers`. */
export class CreateTierDto {
  @Str({ max: 64, description: 'Defaults to your own site; only a superadmin may name another.' })
  site_id?: string;

  @Matches(/\S/, { message: 'name must not be blank' })
  @Str({
    required: true,
    min: 1,
    max: 100,
    example: 'gold',
    description: 'Unique per site (case-insensitive).',
  })
  name!: string;

  @Line({ max: 200, example: 'Gold membership' })
  display_name?: string;

  @Str({ max: 5000, example: 'Five entries into every draw, every month.' })
  description?: string;

  @Bool({
    nullable: false,
    description: 'Default true. Inactive tiers are hidden from the public list and cannot be subscribed to.',
  })
  active?: boolean;

  // At least 1: every period is charged through the gateway, which takes no payment of 0 (a tier of 0 was
  // saved, then every subscription to it failed at the gateway and stayed incomplete).
  @Int({
    required: true,
    min: 1,
    max: MAX_CENTS,
    example: 999,
    description: 'Price per billing interval, in cents.',
  })
  amount_cents!: number;

  @Currency({ required: true })
  currency!: string;

  @Int({ nullable: false, min: 0, max: MAX_CREDITS, example: 5, description: 'Default 0.' })
  entry_credits_per_period?: number;

  @StrArray({
    nullable: false,
    maxItems: 50,
    maxLength: 200,
    example: ['5 entries a month', 'Members-only draws'],
  })
  features?: string[];

  @Int({
    nullable: false,
    min: -1_000_000,
    max: 1_000_000,
    example: 10,
    description: 'Ascending display order; default 0.',
  })
  sort_order?: number;

  @IsOptional()
  @IsUrl(
    { require_protocol: true, protocols: ['http', 'https'] },
    { message: 'image_url must be an http(s) URL' },
  )
  @Str({ max: 1000, example: 'https://cdn.example.com/gold.png' })
  image_url?: string;

  @NotNull()
  @IsIn(BILLING_INTERVALS)
  @ApiProperty({ enum: BILLING_INTERVALS, required: false, example: 'month', description: 'Default month.' })
  billing_interval?: BillingInterval;

  @Int({
    nullable: false,
    min: 0,
    max: 365,
    example: 0,
    description: 'Free-trial days for new subscriptions; default 0.',
  })
  trial_days?: number;
}

/** Endpoint 12: every field optional; only the fields sent change. */
export class UpdateTierDto extends PartialType(OmitType(CreateTierDto, ['site_id'] as const)) {}

export class TierListQueryDto extends PageQueryDto {
  @Str({
    max: 64,
    example: 'main',
    description: 'The site; else the `X-Site-Id` header, else your token’s site.',
  })
  site_id?: string;
}

/** Subscription tier (spec), plus `billing_interval` and `trial_days` that subscriptions are built from. */
export class TierDto {
  @Prop(String, { format: 'uuid' }) id!: string;
  @Prop(String, { example: 'main' }) site_id!: string;
  @Prop(String, { example: 'gold' }) name!: string;
  @Prop(String, { nullable: true, example: 'Gold membership' }) display_name!: string | null;
  @Prop(String, { nullable: true }) description!: string | null;
  @Prop(Boolean) active!: boolean;
  @Prop('integer', { example: 999 }) amount_cents!: number;
  @Prop(String, { example: 'GBP' }) currency!: string;
  @Prop('integer', { example: 5 }) entry_credits_per_period!: number;
  @Prop([String], { example: ['5 entries a month'] }) features!: string[];
  @Prop('integer', { example: 10 }) sort_order!: number;
  @Prop(String, { nullable: true }) image_url!: string | null;
  @Prop(String, { example: 'month', enum: BILLING_INTERVALS } as never) billing_interval!: string;
  @Prop('integer', { example: 0 }) trial_days!: number;
  @Prop(String, { format: 'date-time' }) created_at!: string;
  @Prop(String, { format: 'date-time' }) updated_at!: string;
}
