import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsOptional,
  IsUUID,
  Matches,
  ValidateNested,
} from 'class-validator';
import { PageQueryDto } from '#app/common/pagination/pagination.js';
import { Currency } from '#app/common/validation/money-fields.js';
import { Bool, Email, Int, Line, NotNull, Obj, Prop, Str } from '#app/common/validation/fields.js';
import { STATUS_STAGES } from '../entities/merch-order.entity.js';
import { SIZINGS } from '../entities/merch-product.entity.js';

const MAX_CENTS = 100_000_000;

/** `POST /api/admin/merch/products`. */
export class CreateMerchProductDto {
  @Str({ max: 64, description: 'Defaults to your own site; only a superadmin may name another.' })
  site_id?: string;

  @Matches(/\S/, { message: 'name must not be blank' })
  @Str({ required: true, min: 1, max: 200, example: 'Winner’s T-shirt' })
  name!: string;

  @Str({ max: 5000, example: 'Soft organic cotton, printed on demand.' })
  description?: string;

  @Matches(/\S/, { message: 'sku must not be blank' })
  @Str({
    required: true,
    min: 1,
    max: 100,
    example: 'GLOBAL-TEE-GIL-64000',
    description: 'The provider’s SKU.',
  })
  sku!: string;

  // Paid through a gateway, which takes no payment of 0: a free product could be ordered but never paid.
  @Int({ required: true, min: 1, max: MAX_CENTS, example: 1500 })
  amount_cents!: number;

  @Currency({ required: true })
  currency!: string;

  @NotNull()
  @IsIn(SIZINGS)
  @ApiProperty({
    required: false,
    enum: SIZINGS,
    example: 'fillPrintArea',
    description: 'Default fillPrintArea.',
  })
  sizing?: (typeof SIZINGS)[number];

  @Obj({ nullable: false, example: { size: 'm', color: 'black' } })
  attributes?: Record<string, unknown>;

  @Obj({
    nullable: false,
    example: { default: 'https://cdn.example.com/prints/tee-front.png' },
    description: 'Print area → image URL.',
  })
  assets?: Record<string, string>;

  @Bool({ nullable: false, description: 'Default true; inactive products are not listed or sold.' })
  active?: boolean;
}

/** `PUT /api/admin/merch/products/{id}`: only the fields sent. */
export class UpdateMerchProductDto {
  @Matches(/\S/, { message: 'name must not be blank' })
  @Str({ nullable: false, min: 1, max: 200 })
  name?: string;

  @Str({ max: 5000 })
  description?: string;

  @Matches(/\S/, { message: 'sku must not be blank' })
  @Str({ nullable: false, min: 1, max: 100 })
  sku?: string;

  @Int({ nullable: false, min: 1, max: MAX_CENTS, example: 1800 })
  amount_cents?: number;

  @Currency({ nullable: false })
  currency?: string;

  @NotNull()
  @IsIn(SIZINGS)
  @ApiProperty({ required: false, enum: SIZINGS })
  sizing?: (typeof SIZINGS)[number];

  @Obj({ nullable: false })
  attributes?: Record<string, unknown>;

  @Obj({ nullable: false, description: 'Print area → image URL.' })
  assets?: Record<string, string>;

  @Bool({ nullable: false, example: true })
  active?: boolean;
}

export class MerchProductDto {
  @Prop(String, { format: 'uuid' }) id!: string;
  @Prop(String, { example: 'main' }) site_id!: string;
  @Prop(String, { example: 'Winner’s T-shirt' }) name!: string;
  @Prop(String, { nullable: true }) description!: string | null;
  @Prop(String, { example: 'GLOBAL-TEE-GIL-64000' }) sku!: string;
  @Prop('integer', { example: 1500 }) amount_cents!: number;
  @Prop(String, { example: 'GBP' }) currency!: string;
  @Prop(String, { enum: SIZINGS, example: 'fillPrintArea' } as never) sizing!: string;
  @Prop('object', { example: { size: 'm' } }) attributes!: Record<string, unknown>;
  @Prop('object', { example: { default: 'https://cdn.example.com/prints/tee-front.png' } })
  assets!: Record<string, string>;
  @Prop(Boolean) active!: boolean;
  @Prop(String, { format: 'date-time' }) created_at!: string;
  @Prop(String, { format: 'date-time' }) updated_at!: string;
}

export class MerchProductListQueryDto extends PageQueryDto {
  @Str({ max: 64, example: 'main', description: 'The site; else the `X-Site-Id` header.' })
  site_id?: string;
}

export class MerchOrderLineDto {
  @IsUUID('all')
  @ApiProperty({ type: String, format: 'uuid' })
  merch_product_id!: string;

  @Int({ required: true, min: 1, max: 100, example: 1 })
  copies!: number;
}

/** `POST /merch/orders`: the Merch order's own field names (DESIGN §10). */
export class CreateMerchOrderDto {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @ValidateNested({ each: true })
  @Type(() => MerchOrderLineDto)
  @ApiProperty({ type: [MerchOrderLineDto], minItems: 1, maxItems: 50 })
  items!: MerchOrderLineDto[];

  // The address goes on a shipping label: each field one line, and those the provider needs not blank (as
  // endpoint 3's `missingShipping` holds them), or the buyer pays for an order no one can send.
  @Matches(/\S/, { message: 'recipient_name must not be blank' })
  @Line({ required: true, min: 1, max: 200, example: 'Jane Doe' })
  recipient_name!: string;
  @Email() recipient_email?: string;
  @Line({ max: 50, example: '+447700900123' }) recipient_phone?: string;
  @Matches(/\S/, { message: 'address_line1 must not be blank' })
  @Line({ required: true, min: 1, max: 200, example: '1 High Street' })
  address_line1!: string;
  @Line({ max: 200 }) address_line2?: string;
  @Matches(/\S/, { message: 'town_or_city must not be blank' })
  @Line({ required: true, min: 1, max: 100, example: 'London' })
  town_or_city!: string;
  @Line({ max: 100, example: 'Greater London' }) state_or_county?: string;
  @Matches(/\S/, { message: 'postal_or_zip_code must not be blank' })
  @Line({ required: true, min: 1, max: 20, example: 'SW1A 1AA' })
  postal_or_zip_code!: string;

  @Matches(/^[A-Za-z]{2}$/, { message: 'country_code must be a two-letter country code' })
  @Str({ required: true, min: 2, max: 2, example: 'GB' })
  country_code!: string;

  @NotNull()
  @IsIn(['Budget', 'Standard', 'Express', 'Overnight'])
  @ApiProperty({ required: false, enum: ['Budget', 'Standard', 'Express', 'Overnight'], example: 'Standard' })
  shipping_method?: string;
}

export class MerchOrderItemDto {
  @Prop(String, { format: 'uuid' }) id!: string;
  @Prop(String, { format: 'uuid' }) merch_order_id!: string;
  @Prop(String, { format: 'uuid' }) merch_product_id!: string;
  @Prop(String, { example: 'GLOBAL-TEE-GIL-64000' }) sku!: string;
  @Prop(String, { example: 'fillPrintArea' }) sizing!: string;
  @Prop('integer', { example: 2 }) copies!: number;
  @Prop('number', { example: 30, description: 'Unit price × copies, in major units.' })
  recipient_cost_amount!: number;
  @Prop(String, { example: 'GBP' }) recipient_cost_currency!: string;
  @Prop('object', { example: { default: 'https://cdn.example.com/prints/tee-front.png' } })
  assets!: Record<string, string>;
  @Prop('object', { example: { size: 'm' } }) attributes!: Record<string, unknown>;
  @Prop(String, { format: 'date-time' }) created_at!: string;
  @Prop(String, { format: 'date-time' }) updated_at!: string;
}

/** Merch order (spec). */
export class MerchOrderDto {
  @Prop(String, { format: 'uuid' }) id!: string;
  @Prop(String, { example: 'main' }) site_id!: string;
  @Prop(String, { format: 'uuid' }) user_id!: string;
  @Prop(String, { nullable: true }) checkout_id!: string | null;
  @Prop(String, { nullable: true, description: 'Our payment transaction.' }) payment_id!: string | null;
  @Prop(String, { nullable: true }) fulfilment_order_id!: string | null;
  @Prop(String, { description: 'Where the provider calls back (its token is secret: shown to admins only).' })
  callback_url!: string;
  @Prop(String, { enum: STATUS_STAGES, example: 'submitted' } as never) status_stage!: string;
  @Prop('object') status_details!: Record<string, unknown>;
  @Prop('object', {
    description: 'The provider’s charges from its own record, keyed by the provider’s charge id.',
    example: { chg_1a2b: { id: 'chg_1a2b', totalCost: { amount: '13.50', currency: 'GBP' } } },
  })
  charges!: Record<string, unknown>;
  @Prop('object', {
    description: 'The provider’s shipments from its own record, keyed by the provider’s shipment id.',
    example: {
      shp_3c4d: { id: 'shp_3c4d', carrier: { name: 'Royal Mail' }, tracking: { number: 'RM123456789GB' } },
    },
  })
  shipments!: Record<string, unknown>;
  @Prop('object') metadata!: Record<string, unknown>;
  @Prop(String, { example: 'Standard' }) shipping_method!: string;
  @Prop(String, { example: 'Jane Doe' }) recipient_name!: string;
  @Prop(String, { nullable: true }) recipient_email!: string | null;
  @Prop(String, { nullable: true }) recipient_phone!: string | null;
  @Prop(String) address_line1!: string;
  @Prop(String, { nullable: true }) address_line2!: string | null;
  @Prop(String) town_or_city!: string;
  @Prop(String, { nullable: true }) state_or_county!: string | null;
  @Prop(String) postal_or_zip_code!: string;
  @Prop(String, { example: 'GB' }) country_code!: string;
  @Prop([MerchOrderItemDto]) items!: MerchOrderItemDto[];
  @Prop(String, { format: 'date-time' }) created_at!: string;
  @Prop(String, { format: 'date-time' }) updated_at!: string;
}

export class CreatedMerchOrderDto {
  @Prop(MerchOrderDto) merch_order!: MerchOrderDto;
  @Prop(String, { description: 'gatewayone’s hosted form for the order’s price.' }) checkout_id!: string;
  @Prop(String, { nullable: true }) checkout_url!: string | null;
}

export class MerchOrderListQueryDto extends PageQueryDto {
  @Str({
    max: 64,
    example: 'main',
    description: 'The site; else the `X-Site-Id` header, else your token’s site.',
  })
  site_id?: string;

  @IsOptional()
  @IsIn(STATUS_STAGES)
  @ApiProperty({ required: false, enum: STATUS_STAGES })
  status_stage?: (typeof STATUS_STAGES)[number];
}

export class CallbackReceivedDto {
  @Prop(Boolean, { example: true }) received!: boolean;
}
