import { Prop } from '#app/common/validation/fields.js';
import { TRANSACTION_TYPES } from '../rewards.rules.js';

/** Point transaction (spec), top-level form. */
export class PointTransactionDto {
  @Prop(String, { format: 'uuid' }) id!: string;
  @Prop(String, { example: 'site-a' }) site_id!: string;
  @Prop(String, { format: 'uuid' }) user_id!: string;
  @Prop(String, {
    nullable: true,
    format: 'uuid',
    description: 'The payment that earned or lost these points.',
  })
  payment_transaction_id!: string | null;
  @Prop(String, { example: 'Points for a purchase' }) reason!: string;
  @Prop(String, { example: 'earn', description: `One of: ${TRANSACTION_TYPES.join(', ')}.` })
  transaction_type!: string;
  @Prop(String, { nullable: true, format: 'uuid', description: 'The admin who made an adjustment.' })
  created_by!: string | null;
  @Prop(String, { format: 'date-time' }) created_at!: string;
  @Prop('integer', { example: 12, description: 'Signed: credits positive, debits negative.' })
  amount!: number;
}

/** An admin adjustment's answer: the ledger entry with the user's balance after it. */
export class PointAdjustmentDto extends PointTransactionDto {
  @Prop('integer', { example: 112, description: 'The user’s balance after this entry.' }) balance!: number;
}
