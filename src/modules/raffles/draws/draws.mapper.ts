import type { RaffleWinnerNestedDto } from '#app/modules/raffles/dto/raffle.dto.js';
import type { DrawState } from './draws.repository.js';
import { DRAW_ALGORITHM } from './draw.rules.js';
import type { DrawProofDto, PublicWinnerDto } from './dto/draws.dto.js';
import type { RaffleWinner } from './entities/raffle-winner.entity.js';

/** The one place a winner row becomes a response. */
export function toWinnerDto(w: RaffleWinner): RaffleWinnerNestedDto {
  return {
    id: w.id,
    raffle_id: w.raffle_id,
    entry_id: w.entry_id,
    user_id: w.user_id,
    site_id: w.site_id,
    giveaway: w.giveaway,
    giveaway_reference: w.giveaway_reference,
    prize_description: w.prize_description,
    image: w.image,
    date_won: w.date_won.toISOString(),
    claimed_at: w.claimed_at ? w.claimed_at.toISOString() : null,
    created_at: w.created_at.toISOString(),
    claimed: w.claimed,
    user: null,
    entry: null,
    raffle: null,
  };
}

export function toPublicWinnerDto(w: RaffleWinner): PublicWinnerDto {
  return {
    id: w.id,
    raffle_id: w.raffle_id,
    giveaway: w.giveaway,
    giveaway_reference: w.giveaway_reference,
    prize_description: w.prize_description,
    image: w.image,
    ticket: w.ticket,
    winner_name: w.public_name,
    date_won: w.date_won.toISOString(),
    claimed: w.claimed,
  };
}

/**
 * The proof: the seed only once drawn; winners in draw order; every instant-win ticket fixed at publication
 * (won or not), once the seed is out, in ticket order.
 */
export function toProofDto(
  raffle: DrawState,
  winners: RaffleWinner[],
  instantTickets: Array<{ ticket: number; prize: string }>,
): DrawProofDto {
  const drawn = raffle.is_drawn;
  return {
    raffle_id: raffle.id,
    algorithm: DRAW_ALGORITHM,
    seed_hash: raffle.draw_seed_hash,
    ticket_list_hash: raffle.ticket_list_hash,
    ticket_count: raffle.ticket_count,
    beacon_round: raffle.draw_beacon_round,
    beacon: raffle.draw_beacon,
    closed_at: raffle.closed_at ? new Date(raffle.closed_at).toISOString() : null,
    seed: drawn ? raffle.draw_seed : null,
    winners: winners
      .filter((w) => w.giveaway === 'draw')
      .map((w) => ({ index: w.draw_index ?? 0, ticket: w.ticket, entry_id: w.entry_id })),
    instant_win_total: raffle.instant_win_total,
    instant_wins: drawn ? instantTickets.map((t) => ({ ticket: t.ticket, prize: t.prize })) : [],
  };
}
