import { ApiProperty } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { Int, Prop } from '#app/common/validation/fields.js';
import { IsTimestamp } from '#app/common/validation/timestamp.js';
import { MAX_LIMIT_CENTS } from '../responsible-play.rules.js';

export class UpdateLimitsDto {
  @Int({
    min: 0,
    max: MAX_LIMIT_CENTS,
    nullable: true,
    example: 5000,
    description:
      'Most you may spend on paid entries per calendar month (UTC), in minor units; 0 allowed; null removes ' +
      'the limit; omitted leaves it. Lowering applies at once, raising or removing after 24 h.',
  })
  monthly_spend_limit_cents?: number | null;

  @IsOptional()
  @IsTimestamp('paused_until must be an ISO 8601 timestamp')
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    required: false,
    example: '2026-06-01T00:00:00Z',
    description:
      'Pause all paid entries until then. Starts or extends at once; a running pause cannot be shortened ' +
      'or lifted (422 SELF_PAUSE_ACTIVE). null ends a pause that is over; omitted leaves it.',
  })
  paused_until?: string | null;
}

export class PendingLimitDto {
  @Prop('integer', { nullable: true, example: 9000, description: 'null: the limit is being removed.' })
  monthly_spend_limit_cents!: number | null;
  @Prop(String, { format: 'date-time', description: 'When it takes effect (24 h after it was asked for).' })
  effective_at!: string;
}

export class LimitsDto {
  @Prop('integer', { nullable: true, example: 5000, description: 'The limit in force now; null: none.' })
  monthly_spend_limit_cents!: number | null;
  @Prop(PendingLimitDto, { nullable: true, description: 'A raise or removal waiting for its 24 hours.' })
  pending!: PendingLimitDto | null;
  @Prop(String, { nullable: true, format: 'date-time' }) paused_until!: string | null;
  @Prop(Boolean, { description: 'Whether a self-pause is running now.' }) is_paused!: boolean;
  @Prop(String, { example: '2026-03', description: 'The calendar month (UTC) the figures below are for.' })
  month!: string;
  @Prop('integer', { example: 1200 }) spent_this_month_cents!: number;
  @Prop('integer', { nullable: true, example: 3800, description: 'null without a limit.' })
  remaining_this_month_cents!: number | null;
  @Prop(String, { nullable: true, format: 'date-time' }) updated_at!: string | null;
}
