import type { RaffleEntryRecordDto } from '#app/modules/users/dto/user-records.dto.js';
import type { UserDto } from '#app/modules/users/dto/user.dto.js';
import type { RaffleDto, RaffleEntryNestedDto } from '../dto/raffle.dto.js';
import type { RaffleAudience } from '../ports/raffle-relations.port.js';
import type { RaffleEntryDto } from './dto/entries.dto.js';
import type { RaffleEntry } from './entities/raffle-entry.entity.js';

export function toEntryDto(e: RaffleEntry, raffle: RaffleDto | null, user: UserDto | null): RaffleEntryDto {
  return {
    id: e.id,
    raffle_id: e.raffle_id,
    user_id: e.user_id,
    site_id: e.site_id,
    ip_address: e.ip_address,
    user_agent: e.user_agent,
    created_at: e.created_at.toISOString(),
    entries_count: e.entries_count,
    points_spent: e.points_spent,
    method: e.method,
    ticket_from: e.ticket_from,
    ticket_to: e.ticket_to,
    payment_transaction_id: e.payment_transaction_id,
    raffle,
    user,
  };
}

/** As nested in a Raffle: the public sees entrants pseudonymously, without address or agent. */
export function toNestedEntryDto(e: RaffleEntry, audience: RaffleAudience): RaffleEntryNestedDto {
  const admin = audience === 'admin';
  return {
    id: e.id,
    raffle_id: e.raffle_id,
    user_id: e.user_id,
    site_id: e.site_id,
    ip_address: admin ? e.ip_address : null,
    user_agent: admin ? e.user_agent : null,
    created_at: e.created_at.toISOString(),
    entries_count: e.entries_count,
    points_spent: e.points_spent,
  };
}

export function toEntryRecordDto(e: RaffleEntry, raffle: RaffleDto | null): RaffleEntryRecordDto {
  return {
    id: e.id,
    raffle_id: e.raffle_id,
    user_id: e.user_id,
    site_id: e.site_id,
    ip_address: e.ip_address,
    user_agent: e.user_agent,
    created_at: e.created_at.toISOString(),
    entries_count: e.entries_count,
    points_spent: e.points_spent,
    raffle: raffle as unknown as Record<string, unknown> | null,
    // The spec's Raffle entry has a `user`; nested in the User record it is that User (not expanded again).
    user: null,
  };
}
