import type { RaffleEntryRecordDto } from '#app/modules/users/dto/user-records.dto.js';
import type { UserDto } from '#app/modules/users/dto/user.dto.js';
import type { RaffleDto, RaffleEntryNestedDto } from '../dto/raffle.dto.js';
import type { RaffleAudience } from '../ports/raffle-relations.port.js';
import type { RaffleEntryDto } from './dto/entries.dto.js';
import type { RaffleEntry } from './entities/raffle-entry.entity.js';

/**
 * An entry's address and agent are its entrant's: one staff made for them (a postal entry) shows neither, as a
 * points adjustment does not (the admin's request is in the activity log, not on the member's entry).
 */
function entrantsOwn(e: RaffleEntry): { ip_address: string | null; user_agent: string | null } {
  const byStaff = e.created_by !== null && e.created_by !== e.user_id;
  return { ip_address: byStaff ? null : e.ip_address, user_agent: byStaff ? null : e.user_agent };
}

export function toEntryDto(e: RaffleEntry, raffle: RaffleDto | null, user: UserDto | null): RaffleEntryDto {
  return {
    id: e.id,
    raffle_id: e.raffle_id,
    user_id: e.user_id,
    site_id: e.site_id,
    ...entrantsOwn(e),
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

/**
 * As nested in a Raffle: the public sees entries anonymously, without account, address or agent. The account id
 * is the same on every raffle, and the draw proof names the winning entry: with it, anyone could follow a
 * winner the winners list names (first name and county, DESIGN) to their entries on every other raffle.
 */
export function toNestedEntryDto(e: RaffleEntry, audience: RaffleAudience): RaffleEntryNestedDto {
  const admin = audience === 'admin';
  return {
    id: e.id,
    raffle_id: e.raffle_id,
    user_id: admin ? e.user_id : null,
    site_id: e.site_id,
    ip_address: admin ? e.ip_address : null,
    user_agent: admin ? e.user_agent : null,
    created_at: e.created_at.toISOString(),
    entries_count: e.entries_count,
    points_spent: e.points_spent,
    raffle: null,
    user: null,
  };
}

export function toEntryRecordDto(e: RaffleEntry, raffle: RaffleDto | null): RaffleEntryRecordDto {
  return {
    id: e.id,
    raffle_id: e.raffle_id,
    user_id: e.user_id,
    site_id: e.site_id,
    ...entrantsOwn(e),
    created_at: e.created_at.toISOString(),
    entries_count: e.entries_count,
    points_spent: e.points_spent,
    raffle: raffle as unknown as Record<string, unknown> | null,
    // The spec's Raffle entry has a `user`; nested in the User record it is that User (not expanded again).
    user: null,
  };
}
