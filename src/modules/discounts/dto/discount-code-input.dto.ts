import { Matches } from 'class-validator';
import { Bool, Int, Num, Str, StrArray, WebUrl } from '#app/common/validation/fields.js';
import { INT4_MAX } from '#app/common/column-limits.js';
import { DateTime, QueryBool } from './discount-fields.js';
import { SiteListQueryDto } from './catalogue.dto.js';

/**
 * Request bodies of endpoints 7 and 8 and of the update. Each accepts exactly the fields the spec
 * lists for it (unknown fields are 400); the fields they share are declared once here.
 */
export class OfferFieldsDto {
  @Str({ max: 64, description: 'Defaults to your own site; only a superadmin may name another.' })
  site_id?: string;

  @Str({ max: 5000 }) description?: string;
  @Str({ max: 100, example: 'Outdoor' }) category?: string;
  @Str({ max: 10000 }) terms?: string;
  @WebUrl() partner_logo?: string;
  @WebUrl({ example: 'https://acme.example.com' }) partner_url?: string;
  @WebUrl() thumbnail?: string;
  @Str({ max: 200, description: 'A link to an external system; several codes may share one value.' })
  third_party_id?: string;
  @DateTime({ description: 'First moment the code is valid (inclusive).', example: '2026-12-01T00:00:00Z' })
  valid_from?: string;
  @DateTime({
    example: '2027-01-31T23:59:59Z',
    description:
      'Last moment the code is valid (inclusive). A date alone (`2026-12-31`) is the whole of that day, UTC.',
  })
  valid_until?: string;
  @Bool({ nullable: false, description: 'Default false: one claim per user.' })
  allow_multiple_claims?: boolean;
  @Bool({ nullable: false }) alphanumeric?: boolean;
  @Bool({ nullable: false, description: 'Default false.' }) featured?: boolean;
  @Num({ min: 0, max: 100, example: 20, description: 'Percentage off, 0 to 100; 0.0 is valid.' })
  discount_percentage?: number;
  @Int({ min: 1, max: INT4_MAX, description: 'Claims allowed in all; no limit when omitted.' })
  max_uses?: number;
  @StrArray({ maxItems: 50, maxLength: 64, description: 'Tags of the same site to associate.' })
  tag_ids?: string[];
}

const POINTS = { min: 0, max: INT4_MAX, example: 100, description: 'Points a claim costs, >= 0.' };

export class NewOfferFieldsDto extends OfferFieldsDto {
  @Str({ required: true, max: 64, description: 'A brand of the same site.' }) discount_brand_id!: string;
  @Int({ required: true, ...POINTS }) points_required!: number;
  @Str({ required: true, min: 1, max: 200, example: '20% off tents' }) title!: string;
}

/** Endpoint 7. */
export class CreateDiscountCodeDto extends NewOfferFieldsDto {
  @Str({ required: true, min: 1, max: 64, example: 'SUMMER20' }) code!: string;
  @Bool({ nullable: false, description: 'Default true; when false no code is needed.' })
  code_required?: boolean;
  @Str({ max: 100 }) code_pattern?: string;
  @Int({ min: 1, max: 64, description: 'Defaults to the length of `code`.' }) code_length?: number;
  @Bool({ description: 'Bulk codes are made by `POST /discount-codes/bulk-generate`: only false here.' })
  is_bulk_code?: boolean;
}

/** Endpoint 8 (DESIGN §6). */
export class BulkGenerateDto extends NewOfferFieldsDto {
  @Int({ required: true, min: 4, max: 32, example: 8, description: 'Characters after the prefix.' })
  code_length!: number;

  @Int({ required: true, min: 1, max: 10000, example: 1000 }) count!: number;

  @Str({
    max: 32,
    example: 'SAVE-',
    description:
      'Text every code starts with: letters, digits, `-` and `_`, starting with a letter or digit.',
  })
  @Matches(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, {
    message: 'must be letters, digits, - and _, starting with a letter or digit',
  })
  prefix?: string;

  @Bool({ nullable: false, description: 'Default true.' }) active?: boolean;
}

/** `PUT /discount-codes/{id}`: only the fields sent change; `null` clears an optional one. */
export class UpdateDiscountCodeDto extends OfferFieldsDto {
  @Str({ nullable: false, max: 64 }) discount_brand_id?: string;
  @Int({ nullable: false, ...POINTS }) points_required?: number;
  @Str({ nullable: false, min: 1, max: 200 }) title?: string;
  @Str({ nullable: false, min: 1, max: 64, description: 'Single codes only.' }) code?: string;
  @Bool({ nullable: false }) code_required?: boolean;
  @Str({ max: 100, description: 'Single codes only.' }) code_pattern?: string;
  @Int({ min: 1, max: 64, description: 'Single codes only.' }) code_length?: number;
  @Bool({ nullable: false }) active?: boolean;
}

export class ListDiscountCodesQueryDto extends SiteListQueryDto {
  @Str({ max: 100, description: 'A tag’s slug or id.' }) tag?: string;
  @Str({ max: 200, description: 'A brand’s slug or id.' }) brand?: string;
  @QueryBool({ description: 'Only featured (true) or only not featured (false) codes.' }) featured?: boolean;
}
