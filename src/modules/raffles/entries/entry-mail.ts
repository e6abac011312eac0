import type { Raffle } from '../entities/raffle.entity.js';
import type { RaffleEntry } from './entities/raffle-entry.entity.js';

/** A raffle's `mailer_email_params` that are not its to say: the year is the one the mail is sent in. */
const NOT_BRANDING = new Set(['current_year']);

/**
 * The `raffle_entry` e-mail's variables: the raffle's branding and the tickets the entry got, greeting the
 * entrant by their own first name. The raffle's `first_name` (one greeting for every buyer, as its admin
 * set it) stands only for an entrant who gave none.
 */
export function entryMailVariables(
  raffle: Pick<Raffle, 'name' | 'end_date' | 'mailer_email_params'>,
  entry: Pick<RaffleEntry, 'entries_count' | 'ticket_from' | 'ticket_to' | 'method'>,
  firstName: string | null,
): Record<string, string | number | boolean | null> {
  const params = raffle.mailer_email_params as Record<string, unknown>;
  const branding = Object.fromEntries(
    Object.entries(params).filter(
      ([k, v]) => !NOT_BRANDING.has(k) && ['string', 'number', 'boolean'].includes(typeof v),
    ),
  ) as Record<string, string | number | boolean>;
  return {
    ...branding,
    ...(firstName ? { first_name: firstName } : {}),
    giveaway_name: raffle.name,
    ticket_quantity: entry.entries_count,
    ticket_ranges: ticketRangeText(entry.ticket_from, entry.ticket_to),
    plural: entry.entries_count !== 1,
    entry_method: entry.method === 'paid' ? null : entry.method,
    draw_date: raffle.end_date.toISOString().slice(0, 10),
  };
}

export function ticketRangeText(from: number, to: number): string {
  return from === to ? String(from) : `${from}–${to}`;
}
