import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, Matches, ValidateNested } from 'class-validator';
import { ApiProperty } from '@nestjs/swagger';
import {
  Bool,
  Email,
  Int,
  Line,
  NotNull,
  Num,
  Obj,
  Prop,
  Str,
  StrArray,
  WebUrl,
} from '#app/common/validation/fields.js';
import { narrowerBody } from '#app/common/validation/narrower-bodies.js';
import { CLIENT_DATA_BOUNDS } from './client-data.js';

export class OrderUpsellDto {
  @Num({ min: 0, description: 'Display saving in major units; recomputed by the server.' }) discount?: number;
  @Num({ min: 0, max: 100, description: 'Percent off the unit price for this bundle.' }) percentage?: number;
  @Int({ min: 1, max: 10000, description: 'Legacy alias of `quantity`; must agree with it.' }) qty?: number;
  @Int({ min: 1, max: 10000, description: 'Tickets in the bundle: names the raffle’s bundle.' })
  quantity?: number;
}

const upsellsDecorators = [
  NotNull(),
  IsArray(),
  ArrayMaxSize(20),
  ValidateNested({ each: true }),
  Type(() => OrderUpsellDto),
  ApiProperty({
    type: [OrderUpsellDto],
    required: false,
    description: 'Chosen bundles (matched by `quantity`).',
  }),
];

const SHIP = 'Beyond the spec: only when `item_id` names a merch product, which ships here';
const SHIPPING_METHODS = ['Budget', 'Standard', 'Express', 'Overnight'];

/**
 * Endpoint 3. `confirmation_only: true` with `order_id` and/or `payment_id` processes a completed order
 * (the server asks the gateway); any other body creates an order for the raffle named by `item_id`, or
 * for the merch product of that id (DESIGN §10), which needs the Merch order's address fields — the
 * spec's field list has none, so they are added here, optional, under the Merch order's own names.
 */
export class GatewayOneOrderDto {
  @Num({
    min: 0,
    description: 'Major units; when sent it must equal the server’s price (else AMOUNT_MISMATCH).',
  })
  amount?: number;
  @Str({ max: 3, example: 'GBP' }) currency?: string;
  @Str({ max: 500 }) description?: string;
  @StrArray({ maxItems: 20, maxLength: 40 }) brands?: string[];
  @WebUrl({ emptyIsAbsent: true }) cancel_url?: string;
  @WebUrl({ emptyIsAbsent: true }) failure_url?: string;
  @WebUrl({ emptyIsAbsent: true }) success_url?: string;
  @WebUrl({ emptyIsAbsent: true }) redirect_url?: string;
  @Str({ max: 40 }) completed_at?: string;
  @Str({ max: 40 }) created_at?: string;
  @Bool({ description: 'true: process a completed order instead of creating one.' })
  confirmation_only?: boolean;
  @Obj({ bounds: CLIENT_DATA_BOUNDS }) custom_data?: Record<string, unknown>;
  @Obj({ bounds: CLIENT_DATA_BOUNDS }) metadata?: Record<string, unknown>;
  @Obj({ bounds: CLIENT_DATA_BOUNDS }) utm_params?: Record<string, unknown>;
  @Email() customer_email?: string;
  @Line({ max: 200 }) customer_name?: string;
  @Str({ max: 40 }) customer_phone?: string;
  @Str({ max: 100 }) entity_id?: string;
  @Str({
    max: 100,
    description:
      'Creation: the raffle’s item_id, or a merch product’s id (a raffle of the site with that item_id wins).',
  })
  item_id?: string;
  @Str({ max: 100, description: 'Our order id, from the creation answer (confirmation).' }) order_id?: string;
  @Str({ max: 100, description: 'The gateway’s payment or checkout id (confirmation).' }) payment_id?: string;
  @Str({ max: 64, description: 'A hint: must match the buyer named by the token or customer_email.' })
  user_id?: string;
  @Str({ max: 64 }) site_id?: string;
  @Bool({ description: 'Ask for the payment widget’s integrity hash.' }) integrity?: boolean;
  @Str({ max: 40 }) payment_brand?: string;
  @Str({ max: 40 }) payment_type?: string;
  @Str({ max: 100, description: 'Recorded, never trusted.' }) result_code?: string;
  @Str({ max: 100, description: 'Recorded, never trusted.' }) status?: string;
  @Int({
    min: 0,
    max: 10000,
    example: 5,
    description:
      'Single tickets (default 1; 0 buys the chosen bundles alone, as the quote prices them, and an order of ' +
      'nothing is a 400); of a merch product, copies (1 to 100).',
  })
  quantity?: number;
  @applyAll(upsellsDecorators) upsells?: OrderUpsellDto[];
  @Bool({ description: 'false (or unknown e-mail): a guest purchase that creates the account.' })
  user_exists?: boolean;
  @Str({ max: 200 }) utm?: string;
  @Str({ max: 200 }) utm_campaign?: string;
  @Str({ max: 200 }) utm_content?: string;
  @Str({ max: 200 }) utm_medium?: string;
  @Str({ max: 200 }) utm_source?: string;
  @Str({ max: 200 }) utm_term?: string;

  // On a shipping label: every field one line, as `POST /merch/orders` holds them (blank required ones are
  // refused for a merch item by `missingShipping`).
  @Line({ min: 1, max: 200, example: 'Jane Doe', description: `${SHIP} (required).` })
  recipient_name?: string;
  @Email({ description: `${SHIP}; default the buyer’s e-mail.` }) recipient_email?: string;
  @Line({ max: 50, example: '+447700900123', description: `${SHIP}.` }) recipient_phone?: string;
  @Line({ min: 1, max: 200, example: '1 High Street', description: `${SHIP} (required).` })
  address_line1?: string;
  @Line({ max: 200, description: `${SHIP}.` }) address_line2?: string;
  @Line({ min: 1, max: 100, example: 'London', description: `${SHIP} (required).` })
  town_or_city?: string;
  @Line({ max: 100, example: 'Greater London', description: `${SHIP}.` }) state_or_county?: string;
  @Line({ min: 1, max: 20, example: 'SW1A 1AA', description: `${SHIP} (required).` })
  postal_or_zip_code?: string;

  @Matches(/^[A-Za-z]{2}$/, { message: 'country_code must be a two-letter country code' })
  @Str({ min: 2, max: 2, example: 'GB', description: `${SHIP} (required): ISO 3166-1 alpha-2.` })
  country_code?: string;

  @NotNull()
  @IsIn(SHIPPING_METHODS)
  @ApiProperty({
    required: false,
    enum: SHIPPING_METHODS,
    example: 'Standard',
    description: `${SHIP}; default Standard.`,
  })
  shipping_method?: string;
}

/** The fields a confirmation of endpoint 3 sends (`confirmation_only: true` with `order_id` and/or `payment_id`). */
const CONFIRMATION_FIELDS = ['confirmation_only', 'order_id', 'payment_id', 'result_code', 'status'] as const;

/**
 * Endpoint 3's body when it has no other field than a confirmation's: the same fields, the same rules.
 * Every paid order is confirmed, so this body is validated on the hot path: as the five fields it can
 * have, not the fifty (`narrowerBody` says why).
 */
export const GatewayOneConfirmationDto = narrowerBody(GatewayOneOrderDto, CONFIRMATION_FIELDS);

/** The Merch order's address fields endpoint 3 takes (handed to the product's seller as sent). */
export const SHIPPING_FIELDS = [
  'recipient_name',
  'recipient_email',
  'recipient_phone',
  'address_line1',
  'address_line2',
  'town_or_city',
  'state_or_county',
  'postal_or_zip_code',
  'country_code',
  'shipping_method',
] as const;

/** Endpoint 4. */
export class GatewayTwoOrderDto {
  @Num({ required: true, min: 0, example: 12.5, description: 'Major units.' }) amount!: number;
  @Str({ required: true, max: 3, example: 'GBP' }) currency!: string;
  @Str({ required: true, max: 500, example: '5 tickets' }) description!: string;
  @WebUrl({ emptyIsAbsent: true }) cancel_url?: string;
  @Email() customer_email?: string;
  @WebUrl({ emptyIsAbsent: true }) failure_url?: string;
  @Str({
    max: 100,
    description: 'A raffle’s item_id: priced like endpoint 3. Without it, a generic payment.',
  })
  item_id?: string;
  @Str({ max: 64 }) site_id?: string;
  @WebUrl({ emptyIsAbsent: true }) success_url?: string;
  @Str({ max: 64 }) user_id?: string;
  @Str({ max: 200 }) utm?: string;
  @Str({ max: 200 }) utm_campaign?: string;
  @Str({ max: 200 }) utm_content?: string;
  @Str({ max: 200 }) utm_medium?: string;
  @Str({ max: 200 }) utm_source?: string;
  @Str({ max: 200 }) utm_term?: string;
  @Int({ min: 1, max: 10000 }) quantity?: number;
  @Bool() user_exists?: boolean;
}

const text = { nullable: true } as const;

/** Endpoint 3's answer; failures too (`success: false`, `error`, `error_code`, `message`). */
export class GatewayOneOrderResultDto {
  @Prop(Boolean) success!: boolean;
  @Prop(String, text) checkout_id!: string | null;
  @Prop(String, {
    ...text,
    example: 'http://localhost:3000/sandbox/gatewayone/pay/8A3C5E0D4B1F4E2A9C7D6B5A4F3E2D1C',
    description:
      'Where the shopper pays: in the sandbox, the hosted pay page to open in a browser; with the live ' +
      'gateway, the payment widget script a front end embeds for `checkout_id`. Beyond the spec.',
  })
  checkout_url!: string | null;
  @Prop(String, { ...text, description: 'Our order id.' }) order_id!: string | null;
  @Prop(String, { ...text, description: 'The gateway’s payment id once known; until then the checkout id.' })
  payment_id!: string | null;
  @Prop(String, { ...text, example: 'pending' }) order_state!: string | null;
  @Prop(String, { ...text, example: 'pending' }) status!: string | null;
  @Prop(String, { ...text, example: 'sandbox' }) environment!: string | null;
  @Prop(String, text) integrity!: string | null;
  @Prop(String, text) message!: string | null;
  @Prop(String, text) error!: string | null;
  @Prop(String, { ...text, example: 'AMOUNT_MISMATCH' }) error_code!: string | null;
}

/** Endpoint 4's answer. */
export class GatewayTwoOrderResultDto {
  @Prop(Boolean) success!: boolean;
  @Prop(String, text) checkout_url!: string | null;
  @Prop(String, text) environment!: string | null;
  @Prop(String, text) error!: string | null;
  @Prop(String, text) error_code!: string | null;
  @Prop(String, text) order_id!: string | null;
  @Prop(String, { ...text, example: 'pending' }) order_state!: string | null;
}

function applyAll(decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => {
    for (const decorate of decorators) decorate(target, key);
  };
}
