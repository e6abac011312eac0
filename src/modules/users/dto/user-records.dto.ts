import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { Prop } from '#app/common/validation/fields.js';

/**
 * A nested form that a feature above users answers (a Subscription, a Raffle), documented by reference to
 * its schema by name: users cannot import those features' classes (they depend on users), and an untyped
 * `object` left generated clients nothing to read there.
 */
function NestedRef(schema: 'NestedSubscriptionDto' | 'RaffleDto', description: string): PropertyDecorator {
  return ApiProperty({ nullable: true, description, allOf: [{ $ref: getSchemaPath(schema) }] });
}

/** Point transaction, nested form (spec: Point transaction). */
export class PointTransactionRecordDto {
  @Prop(String) id!: string;
  @Prop(String) site_id!: string;
  @Prop(String) user_id!: string;
  @Prop(String, { nullable: true }) payment_transaction_id!: string | null;
  @Prop(String) reason!: string;
  @Prop(String, { example: 'earn' }) transaction_type!: string;
  @Prop(String, { nullable: true }) created_by!: string | null;
  @Prop(String, { format: 'date-time' }) created_at!: string;
  @Prop('integer') amount!: number;
  @Prop(String, { nullable: true }) ip_address!: string | null;
  @Prop(String, { nullable: true }) user_agent!: string | null;
}

/** Payment transaction, nested form (spec: Payment transaction, "nested user-record form"). */
export class PaymentTransactionRecordDto {
  @Prop(String) id!: string;
  @Prop(String) site_id!: string;
  @Prop(String) gateway!: string;
  @Prop(String, { nullable: true }) gateway_transaction_id!: string | null;
  @Prop(String) currency!: string;
  @Prop(String, { nullable: true }) description!: string | null;
  @Prop(String, { nullable: true }) payment_method!: string | null;
  @Prop(String) status!: string;
  @Prop(String, { format: 'date-time' }) created_at!: string;
  @Prop(String, { format: 'date-time' }) updated_at!: string;
  @Prop(String, { nullable: true, format: 'date-time' }) webhook_received_at!: string | null;
  @Prop(String, { nullable: true }) user_id!: string | null;
  @Prop('integer') amount_cents!: number;
  @Prop('integer', { example: 0, description: 'Refunded so far.' }) refunded_cents!: number;
  @Prop('number', { nullable: true }) fraud_score!: number | null;
  @Prop('object') metadata!: Record<string, unknown>;
  @Prop(String, { nullable: true }) subscription_id!: string | null;
  @NestedRef('NestedSubscriptionDto', 'The Subscription this payment is for, when it is one.')
  subscription!: Record<string, unknown> | null;
  @Prop([PointTransactionRecordDto]) points!: PointTransactionRecordDto[];
  @Prop(String, { nullable: true }) ip_address!: string | null;
  @Prop(String, { nullable: true }) user_agent!: string | null;
  @Prop('object', { nullable: true }) webhook_data!: Record<string, unknown> | null;
}

/** Raffle entry as nested in the User record. */
export class RaffleEntryRecordDto {
  @Prop(String) id!: string;
  @Prop(String) raffle_id!: string;
  @Prop(String) user_id!: string;
  @Prop(String) site_id!: string;
  @Prop(String, { nullable: true }) ip_address!: string | null;
  @Prop(String, { nullable: true }) user_agent!: string | null;
  @Prop(String, { format: 'date-time' }) created_at!: string;
  @Prop('integer') entries_count!: number;
  @Prop('integer') points_spent!: number;
  @NestedRef('RaffleDto', 'The Raffle entered.') raffle!: Record<string, unknown> | null;
  @Prop('object', {
    nullable: true,
    description:
      'User: `null` here, where the entry is nested in its own User (the back-reference is not expanded).',
  })
  user!: null;
}
