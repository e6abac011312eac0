import { Prop } from '#app/common/validation/fields.js';

/** 201 to `POST /discount-codes/{id}/claim` (DESIGN §10). */
export class ClaimResultDto {
  @Prop(String, {
    nullable: true,
    example: 'SPRING-7KQ2MX',
    description:
      'Your code: a generated one for a bulk code, the shared one otherwise; null when none is needed.',
  })
  code!: string | null;
  @Prop(String, { format: 'uuid' }) claim_id!: string;
  @Prop('integer', { example: 100 }) points_spent!: number;
  @Prop('integer', {
    example: 450,
    description: 'Your points balance after the claim (and any claim bonus).',
  })
  balance!: number;
}
