import { Matches } from 'class-validator';
import { PageQueryDto } from '#app/common/pagination/pagination.js';
import { Bool, Line, Str, WebUrl } from '#app/common/validation/fields.js';
import { SLUG_PATTERN } from '../discounts.rules.js';
import { DateTime } from './discount-fields.js';

const SLUG_RULE = { message: 'must be lower-case letters and digits joined by single hyphens' };

export class CreateDiscountBrandDto {
  @Str({ max: 64, description: 'Defaults to your own site; only a superadmin may name another.' })
  site_id?: string;

  @Line({ required: true, min: 1, max: 200, example: 'Acme Outdoor' }) name!: string;

  @Str({ max: 100, example: 'acme-outdoor', description: 'Unique per site; made from `name` when omitted.' })
  @Matches(SLUG_PATTERN, SLUG_RULE)
  slug?: string;

  @Str({ max: 5000 }) description?: string;
  @Str({ max: 200 }) collection_id?: string;
  @Str({ max: 200 }) item_id?: string;
  @Str({ max: 200 }) locale_id?: string;
  @WebUrl({ example: 'https://cdn.example.com/acme.png' }) logo?: string;
  @WebUrl() logo_black_and_white?: string;
  @WebUrl() thumbnail?: string;
  @Str({ max: 100, example: 'Up to 40%' }) max_discount?: string;
  @DateTime() published_on?: string;
  @Bool({ nullable: false, description: 'Default false.' }) archived?: boolean;
  @Bool({ nullable: false, description: 'Default false. Drafts are not listed publicly.' })
  draft?: boolean;
}

export class CreateTagDto {
  @Str({ max: 64, description: 'Defaults to your own site; only a superadmin may name another.' })
  site_id?: string;

  @Line({ required: true, min: 1, max: 100, example: 'Outdoor' }) name!: string;

  @Str({ max: 100, example: 'outdoor', description: 'Unique per site; made from `name` when omitted.' })
  @Matches(SLUG_PATTERN, SLUG_RULE)
  slug?: string;

  @Str({ max: 2000 }) description?: string;
  @Str({ max: 32, example: '#1e88e5' }) color?: string;
  @Bool({ nullable: false, description: 'Default true. Inactive tags are not listed publicly.' })
  active?: boolean;
}

export class SiteListQueryDto extends PageQueryDto {
  @Str({
    max: 64,
    example: 'main',
    description: 'The site; else the `X-Site-Id` header, else your token’s site.',
  })
  site_id?: string;
}
