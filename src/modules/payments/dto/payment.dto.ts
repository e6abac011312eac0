import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PageQueryDto } from '#app/common/pagination/pagination.js';
import { Int, Obj, Prop, Str } from '#app/common/validation/fields.js';
import { PAYMENT_STATUSES } from '../entities/payment-transaction.entity.js';
import { CLIENT_DATA_BOUNDS } from './client-data.js';
import { MAX_PAYMENT_CENTS, PAYMENT_METHOD_GATEWAY } from '../payments.rules.js';

const METHODS = Object.keys(PAYMENT_METHOD_GATEWAY);

/** Endpoint 6. The amount is what you pay; `user_id` comes from the token, never the body. */
export class CreatePaymentDto {
  @Int({ required: true, min: 1, max: MAX_PAYMENT_CENTS, example: 1250 }) amount_cents!: number;
  @Str({ required: true, min: 3, max: 3, example: 'GBP', description: 'ISO 4217.' }) currency!: string;
  @IsIn(METHODS)
  @ApiProperty({
    enum: METHODS,
    example: 'card',
    description: 'card, apple_pay, google_pay (gatewayone) or revolut_pay (gatewaytwo).',
  })
  payment_method!: string;
  @Str({ max: 500, example: 'Top-up' }) description?: string;
  @Obj({ bounds: CLIENT_DATA_BOUNDS }) metadata?: Record<string, unknown>;
}

/** Payment transaction (spec). */
export class PaymentTransactionDto {
  @Prop(String) id!: string;
  @Prop(String) site_id!: string;
  @Prop(String, { example: 'gatewayone' }) gateway!: string;
  @Prop(String, { nullable: true }) gateway_transaction_id!: string | null;
  @Prop(String, { example: 'GBP' }) currency!: string;
  @Prop(String, { nullable: true }) description!: string | null;
  @Prop(String, { nullable: true, example: 'card' }) payment_method!: string | null;
  @Prop(String, { example: 'pending', description: PAYMENT_STATUSES.join(', ') }) status!: string;
  @Prop(String, { format: 'date-time' }) created_at!: string;
  @Prop(String, { format: 'date-time' }) updated_at!: string;
  @Prop(String, { nullable: true, format: 'date-time' }) webhook_received_at!: string | null;
  @Prop(String, { nullable: true }) user_id!: string | null;
  @Prop('integer', { example: 1250 }) amount_cents!: number;
  @Prop('number', { nullable: true }) fraud_score!: number | null;
  @Prop('object', {
    description: '`checkout_id`, `checkout_url` of the checkout opened for it, and what you sent.',
  })
  metadata!: Record<string, unknown>;
  @Prop('integer', { example: 0, description: 'Refunded so far.' }) refunded_cents!: number;
}

export class PaymentListQueryDto extends PageQueryDto {
  @Str({ max: 64 }) site_id?: string;
  @IsOptional()
  @IsIn([...PAYMENT_STATUSES])
  @ApiProperty({ enum: PAYMENT_STATUSES, required: false, description: 'Any status when omitted.' })
  status?: (typeof PAYMENT_STATUSES)[number];
}

export class RefundDto {
  @Int({ min: 1, max: 100_000_000, description: 'Minor units; the whole remaining amount when omitted.' })
  amount_cents?: number;
  @Str({ required: true, min: 1, max: 500, example: 'Customer request' }) reason!: string;
}
