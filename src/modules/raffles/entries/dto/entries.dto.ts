import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { Int, Prop, Str } from '#app/common/validation/fields.js';
import { UserDto } from '#app/modules/users/dto/user.dto.js';
import { RaffleDto } from '#app/modules/raffles/dto/raffle.dto.js';

/** The largest single entry: far beyond any raffle's tickets, small enough to keep arithmetic safe. */
export const MAX_ENTRY_QUANTITY = 10_000;

export class CreateEntryDto {
  @IsIn(['credits', 'points', 'free'])
  @ApiProperty({
    enum: ['credits', 'points', 'free'],
    example: 'points',
    description:
      '`points`: `points_required` per ticket from your balance; `free`: the no-purchase route, one ticket ' +
      'once per raffle where `allow_free_entries`; `credits`: subscription entry credits.',
  })
  method!: 'credits' | 'points' | 'free';

  @Int({ required: true, min: 1, max: MAX_ENTRY_QUANTITY, example: 2 })
  quantity!: number;
}

export class CreatePostalEntryDto {
  @Str({ required: true, max: 64, description: 'The entrant (a user of the raffle’s site).' })
  user_id!: string;

  @Int({ required: true, min: 1, max: MAX_ENTRY_QUANTITY, example: 1 })
  quantity!: number;

  @IsIn(['postal'])
  @ApiProperty({ enum: ['postal'], example: 'postal' })
  method!: 'postal';

  @Str({ max: 500, description: 'Where the postal entry came from (reference, postmark date…).' })
  note?: string;
}

/** Raffle entry (spec), with its tickets. */
export class RaffleEntryDto {
  @Prop(String) id!: string;
  @Prop(String) raffle_id!: string;
  @Prop(String) user_id!: string;
  @Prop(String) site_id!: string;
  @Prop(String, { nullable: true }) ip_address!: string | null;
  @Prop(String, { nullable: true }) user_agent!: string | null;
  @Prop(String, { format: 'date-time' }) created_at!: string;
  @Prop('integer', { example: 2 }) entries_count!: number;
  @Prop('integer', { example: 0 }) points_spent!: number;
  @Prop(String, { example: 'points', description: 'paid, credits, points, free or postal' }) method!: string;
  @Prop('integer', { example: 41, description: 'First ticket number of this entry.' }) ticket_from!: number;
  @Prop('integer', { example: 42, description: 'Last ticket number of this entry.' }) ticket_to!: number;
  @Prop(String, { nullable: true }) payment_transaction_id!: string | null;
  @Prop(RaffleDto, { nullable: true }) raffle!: RaffleDto | null;
  @Prop(UserDto, { nullable: true, description: 'The entrant (null in lists of one’s own entries).' })
  user!: UserDto | null;
}
