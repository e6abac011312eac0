import { Int, Prop, Str } from '#app/common/validation/fields.js';
import { RaffleWinnerNestedDto } from '#app/modules/raffles/dto/raffle.dto.js';

/** The most winners one draw picks. */
export const MAX_WINNERS = 1000;

export class DrawRequestDto {
  @Int({ required: true, min: 1, max: MAX_WINNERS, example: 1, description: 'How many winning entries.' })
  winners!: number;

  @Str({
    max: 200,
    example: 'drand-quicknet-12345678:7a1f…',
    description:
      'The value of the beacon round the raffle announced before its close (`draw_beacon_round`), given now; it ' +
      'enters every HMAC message. Required when a round was announced; refused when none was.',
  })
  beacon?: string;
}

export class ProofWinnerDto {
  @Prop('integer', { description: 'The draw index i that picked it.' }) index!: number;
  @Prop('integer') ticket!: number;
  @Prop(String, { format: 'uuid' }) entry_id!: string;
}

export class ProofInstantWinDto {
  @Prop('integer') ticket!: number;
  @Prop(String) prize!: string;
}

/** DESIGN §6 step 4: everything needed to recompute the draw, the seed once it is revealed. */
export class DrawProofDto {
  @Prop(String, { format: 'uuid' }) raffle_id!: string;
  @Prop(String, { example: 'hmac-sha256-rejection-v1' }) algorithm!: string;
  @Prop(String, { nullable: true, description: 'sha256 (hex) of the seed’s bytes, from publication.' })
  seed_hash!: string | null;
  @Prop(String, { nullable: true, description: 'sha256 (hex) of tickets.csv, from the close.' })
  ticket_list_hash!: string | null;
  @Prop('integer', { nullable: true, description: 'N: tickets sold, from the close.' })
  ticket_count!: number | null;
  @Prop(String, {
    nullable: true,
    description: 'The beacon round announced before the close (the raffle’s `draw_beacon_round`), if any.',
  })
  beacon_round!: string | null;
  @Prop(String, {
    nullable: true,
    description: 'That round’s value, given at the draw: check it at its source.',
  })
  beacon!: string | null;
  @Prop(String, {
    nullable: true,
    format: 'date-time',
    description: 'When the raffle closed (its ticket list final): the beacon round must come after it.',
  })
  closed_at!: string | null;
  @Prop(String, { nullable: true, description: 'The secret seed (hex), null until the draw.' })
  seed!: string | null;
  @Prop([ProofWinnerDto]) winners!: ProofWinnerDto[];
  @Prop('integer', {
    nullable: true,
    description: 'Instant-win tickets were drawn over 1..this (the tickets available at publication).',
  })
  instant_win_total!: number | null;
  @Prop([ProofInstantWinDto], {
    description:
      'Every instant-win ticket fixed at publication, in ticket order; empty until the draw reveals the seed.',
  })
  instant_wins!: ProofInstantWinDto[];
}

/** A winner as the public sees it: first name and county only (CAP Code 8.28.5). */
export class PublicWinnerDto {
  @Prop(String, { format: 'uuid' }) id!: string;
  @Prop(String, { format: 'uuid' }) raffle_id!: string;
  @Prop(String, { example: 'draw', description: '`draw` or `instant`.' }) giveaway!: string;
  @Prop(String, { nullable: true }) giveaway_reference!: string | null;
  @Prop(String, { nullable: true }) prize_description!: string | null;
  @Prop(String, { nullable: true }) image!: string | null;
  @Prop('integer') ticket!: number;
  @Prop(String, { example: 'Sam from Kent' }) winner_name!: string;
  @Prop(String, { format: 'date-time' }) date_won!: string;
  @Prop(Boolean) claimed!: boolean;
}

/** `POST /admin/raffles/{id}/draw`: the winners, stored, and the names shown on the raffle. */
export class DrawResultDto {
  @Prop(String, { format: 'uuid' }) raffle_id!: string;
  @Prop(String, { format: 'date-time' }) drawn_at!: string;
  @Prop(String) winner_names!: string;
  @Prop([RaffleWinnerNestedDto]) winners!: RaffleWinnerNestedDto[];
}
