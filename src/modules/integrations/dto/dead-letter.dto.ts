import { Prop } from '#app/common/validation/fields.js';

/** A delivery to a provider that failed every retry. */
export class DeadLetterDto {
  @Prop(String, { format: 'uuid' }) id!: string;
  @Prop(String, {
    example: 'contact_upsert',
    enum: ['contact_upsert', 'contact_remove', 'track', 'marketing_identify'],
  } as never)
  kind!: string;
  @Prop(String, { example: 'main' }) site_id!: string;
  @Prop(String, { format: 'uuid' }) user_id!: string;
  @Prop(String, { nullable: true, example: 'Order Completed' }) event!: string | null;
  @Prop('integer', { example: 5 }) attempts!: number;
  @Prop(String, { nullable: true, example: 'contactsvc: POST /v3/contacts answered 503' }) last_error!:
    string | null;
  @Prop(String, { format: 'date-time' }) created_at!: string;
  @Prop(String, { format: 'date-time', nullable: true }) failed_at!: string | null;
}
