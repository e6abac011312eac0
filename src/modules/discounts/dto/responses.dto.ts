import { ApiProperty } from '@nestjs/swagger';
import { Prop } from '#app/common/validation/fields.js';

/** Response shapes of the catalogue. Brand and code refer to each other, so they share this file. */

export class TagDto {
  @Prop(String) id!: string;
  @Prop(String) site_id!: string;
  @Prop(String, { example: 'Outdoor' }) name!: string;
  @Prop(String, { example: 'outdoor' }) slug!: string;
  @Prop(String, { nullable: true }) description!: string | null;
  @Prop(String, { nullable: true, example: '#1e88e5' }) color!: string | null;
  @Prop(Boolean) active!: boolean;
  @Prop(String, { format: 'date-time' }) created_at!: string;
  @Prop(String, { format: 'date-time' }) updated_at!: string;
}

export class DiscountBrandDto {
  @Prop(String) id!: string;
  @Prop(String) site_id!: string;
  @Prop(String, { nullable: true }) collection_id!: string | null;
  @Prop(String, { nullable: true }) item_id!: string | null;
  @Prop(String, { nullable: true }) locale_id!: string | null;
  @Prop(String, { example: 'Acme Outdoor' }) name!: string;
  @Prop(String, { example: 'acme-outdoor' }) slug!: string;
  @Prop(String, { nullable: true }) description!: string | null;
  @Prop(String, { nullable: true }) logo!: string | null;
  @Prop(String, { nullable: true }) logo_black_and_white!: string | null;
  @Prop(String, { nullable: true }) thumbnail!: string | null;
  @Prop(String, { nullable: true, example: 'Up to 40%' }) max_discount!: string | null;
  @Prop(String, { nullable: true, format: 'date-time' }) published_on!: string | null;
  @Prop(String, { format: 'date-time' }) created_at!: string;
  @Prop(String, { format: 'date-time' }) updated_at!: string;
  @Prop(Boolean) archived!: boolean;
  @Prop(Boolean) draft!: boolean;
  // The two resources nest each other: a lazy type (named `type`, as Swagger needs) breaks the cycle.
  @ApiProperty({
    type: () => [DiscountCodeDto],
    nullable: true,
    description:
      'The brand’s codes the caller may see, each with `discount_brand: null` (this brand). ' +
      '`null` where the brand is itself nested in a code.',
  })
  discount_codes!: DiscountCodeDto[] | null;
}

export class DiscountCodeDto {
  @Prop(String) id!: string;
  @Prop(String) site_id!: string;
  @Prop(String, { example: '20% off tents' }) title!: string;
  @Prop(String, { nullable: true }) description!: string | null;
  @Prop(String, { nullable: true }) category!: string | null;
  @Prop(String, { nullable: true }) terms!: string | null;
  @Prop(String, {
    nullable: true,
    example: null,
    description: 'The code text: only for admins and for a user who claimed it; `null` otherwise.',
  })
  code!: string | null;
  @Prop(String, {
    nullable: true,
    example: 'SAVE-••••••••',
    description: 'The code when visible; else bullets (a bulk code shows its prefix).',
  })
  code_display!: string | null;
  @Prop(Boolean) code_required!: boolean;
  @Prop('integer', { nullable: true }) code_length!: number | null;
  @Prop(String, {
    nullable: true,
    description: 'Free text for single codes; for bulk codes the prefix then one `#` per character.',
  })
  code_pattern!: string | null;
  @Prop(Boolean) alphanumeric!: boolean;
  @Prop(Boolean) is_bulk_code!: boolean;
  @Prop(Boolean) allow_multiple_claims!: boolean;
  @Prop([String], { description: 'The generated codes the current user has claimed (bulk codes).' })
  claimed_codes!: string[];
  @Prop(Boolean) has_claimed_code!: boolean;
  @Prop('integer') current_uses!: number;
  @Prop('integer', { nullable: true }) max_uses!: number | null;
  @Prop('integer', { example: 100 }) points_required!: number;
  @Prop('number', { nullable: true, example: 20 }) discount_percentage!: number | null;
  @Prop(Boolean) active!: boolean;
  @Prop(Boolean) featured!: boolean;
  @Prop(Boolean, {
    description: 'Active, inside [valid_from, valid_until], uses left and (bulk) unclaimed codes left.',
  })
  is_valid!: boolean;
  @Prop(String, { nullable: true, format: 'date-time' }) valid_from!: string | null;
  @Prop(String, { nullable: true, format: 'date-time' }) valid_until!: string | null;
  @Prop(String, { nullable: true }) partner_logo!: string | null;
  @Prop(String, { nullable: true }) partner_url!: string | null;
  @Prop(String, { nullable: true }) thumbnail!: string | null;
  @Prop(String, { nullable: true }) third_party_id!: string | null;
  @Prop(String) discount_brand_id!: string;
  @ApiProperty({
    type: () => DiscountBrandDto,
    nullable: true,
    description: 'The brand, with `discount_codes: null`; `null` where the code is nested in its brand.',
  })
  discount_brand!: DiscountBrandDto | null;
  @Prop([TagDto]) tags!: TagDto[];
  @Prop(String, { format: 'date-time' }) created_at!: string;
  @Prop(String, { format: 'date-time' }) updated_at!: string;
}

/** Bulk-generate answers the Discount code with `generated_count` added (DESIGN §4). */
export class BulkGenerateResultDto extends DiscountCodeDto {
  @Prop('integer', { example: 1000, description: 'How many unique codes were generated.' })
  generated_count!: number;
}
