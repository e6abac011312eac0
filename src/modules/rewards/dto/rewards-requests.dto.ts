import { NotEquals } from 'class-validator';
import { PageQueryDto } from '#app/common/pagination/pagination.js';
import { Int, Str } from '#app/common/validation/fields.js';

export const MAX_ADJUSTMENT = 1_000_000;

export class PointsLedgerQueryDto extends PageQueryDto {
  @Str({ max: 64, description: 'Your own site (the default); naming another is 403.' })
  site_id?: string;
}

export class AdjustPointsDto {
  @Str({
    required: true,
    max: 64,
    description: 'The user whose balance changes; a user of another site is 404.',
    example: '3f1c2d9e-8b7a-4c6d-9e5f-1a2b3c4d5e6f',
  })
  user_id!: string;

  @Int({
    required: true,
    min: -MAX_ADJUSTMENT,
    max: MAX_ADJUSTMENT,
    description:
      'Points to add (positive) or remove (negative); not zero. The balance never goes below zero.',
    example: 50,
  })
  @NotEquals(0, { message: 'amount must not be zero' })
  amount!: number;

  @Str({ required: true, min: 1, max: 500, example: 'Goodwill for a delayed prize' })
  reason!: string;

  @Str({ max: 64, description: 'Defaults to your own site; only a superadmin may name another.' })
  site_id?: string;
}

/** The site of a rewards read (DESIGN §3): the query, else `X-Site-Id`, else the token's. */
export class RewardsSiteQueryDto {
  @Str({
    max: 64,
    example: 'main',
    description: 'The site; else the `X-Site-Id` header, else your token’s site.',
  })
  site_id?: string;
}

/** Endpoint 16, paged like every list (DESIGN §9); the site as for the summary. */
export class ReferralsQueryDto extends PageQueryDto {
  @Str({
    max: 64,
    example: 'main',
    description: 'The site; else the `X-Site-Id` header, else your token’s site.',
  })
  site_id?: string;
}
