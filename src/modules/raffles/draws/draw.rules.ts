import { createHmac } from 'node:crypto';
import { CONTROL_RUN } from '#app/common/validation/fields.js';

/**
 * The draw of DESIGN §6, pinned byte for byte so anyone can recompute it (docs/FAIR-DRAWS.md). Pure: no
 * database, no clock; the service feeds it the seed, the published ticket list hash and a way to find the
 * entry holding a ticket.
 */
export const DRAW_ALGORITHM = 'hmac-sha256-rejection-v1';

/** The ticket list's first line. */
export const TICKET_CSV_HEADER = 'ticket_from,ticket_to,entry_id\n';

/** One entry's line of the ticket list (no personal data: the entry's id and its tickets only). */
export function ticketCsvLine(from: number, to: number, entryId: string): string {
  return `${from},${to},${entryId}\n`;
}

const TWO_64 = 1n << 64n;

/**
 * Rejection sampling over 1..n: `message(j)` is HMAC-ed with the seed for attempts j = 0, 1, …; the first
 * 8 bytes (unsigned, big-endian) are accepted when below the largest multiple of n that fits in 2^64.
 */
export function sampleTicket(seed: Buffer, n: number, message: (j: number) => string): number {
  if (!Number.isInteger(n) || n < 1) throw new Error('nothing to draw from');
  const size = BigInt(n);
  const limit = TWO_64 - (TWO_64 % size);
  for (let j = 0; ; j++) {
    const x = createHmac('sha256', seed).update(message(j), 'utf8').digest().readBigUInt64BE(0);
    if (x < limit) return Number(x % size) + 1;
  }
}

export interface DrawInput {
  /** The secret seed, hex (32 bytes). */
  seed: string;
  raffleId: string;
  ticketListHash: string;
  beacon: string | null;
  /** Tickets sold (N). */
  ticketCount: number;
}

/** The ticket drawn at index `i`: message `<raffle id>|<ticket_list_hash>|<beacon or empty>|<i>|<j>`. */
export function drawTicket(input: DrawInput, i: number): number {
  const prefix = `${input.raffleId}|${input.ticketListHash}|${input.beacon ?? ''}|${i}|`;
  return sampleTicket(Buffer.from(input.seed, 'hex'), input.ticketCount, (j) => prefix + String(j));
}

export interface DrawnWinner {
  index: number;
  ticket: number;
  entry_id: string;
}

/**
 * Winners in draw order: index i = 0, 1, …; a ticket whose entry has already won is skipped (next i), so
 * winners are distinct entries; stops at `wanted` winners or when every one of `entryCount` entries won.
 * `entryOf` answers the id of the entry holding a ticket (async: the service looks it up), or null for a
 * ticket on no line of the list (a gap), which is skipped like a repeat.
 */
export async function drawWinners(
  input: DrawInput,
  wanted: number,
  entryCount: number,
  entryOf: (ticket: number) => Promise<string | null>,
): Promise<DrawnWinner[]> {
  const target = Math.min(wanted, entryCount);
  const winners: DrawnWinner[] = [];
  const won = new Set<string>();
  for (let i = 0; winners.length < target; i++) {
    const ticket = drawTicket(input, i);
    const entryId = await entryOf(ticket);
    if (entryId === null || won.has(entryId)) continue;
    won.add(entryId);
    winners.push({ index: i, ticket, entry_id: entryId });
  }
  return winners;
}

/**
 * Instant-win tickets, fixed at publication: the k-th prize ticket from message
 * `<raffle id>|instant|<k>|<j>` over 1..total, distinct (a repeat takes the next k).
 */
export function instantWinTickets(seed: string, raffleId: string, total: number, count: number): number[] {
  const key = Buffer.from(seed, 'hex');
  const tickets: number[] = [];
  const taken = new Set<number>();
  const wanted = Math.min(count, total);
  for (let k = 0; tickets.length < wanted; k++) {
    const ticket = sampleTicket(key, total, (j) => `${raffleId}|instant|${k}|${j}`);
    if (taken.has(ticket)) continue;
    taken.add(ticket);
    tickets.push(ticket);
  }
  return tickets;
}

/** The prize of each instant-win ticket: the first `count` tickets drawn win the first prize, and so on. */
export function assignInstantPrizes(
  tickets: number[],
  prizes: Array<{ prize: string; count: number }>,
): Array<{ ticket: number; prize: string }> {
  const out: Array<{ ticket: number; prize: string }> = [];
  let k = 0;
  for (const p of prizes)
    for (let c = 0; c < p.count && k < tickets.length; c++)
      out.push({ ticket: tickets[k++], prize: p.prize });
  return out;
}

/**
 * How a winner is shown in public (CAP Code 8.28.5): first name and county-level place, nothing more.
 * "Sam from Kent"; "Sam"; "A winner from Kent"; "A winner".
 */
export function publicWinnerName(firstName: string | null, county: string | null): string {
  // One line whatever was stored before profile fields were held to one line (control characters as spaces).
  const name = firstName?.replace(CONTROL_RUN, ' ').trim().split(/\s+/)[0] || 'A winner';
  const place = county?.replace(CONTROL_RUN, ' ').replace(/\s+/g, ' ').trim();
  return place ? `${name} from ${place}` : name;
}

/**
 * Whether a draw's `beacon` may be taken (DESIGN §6: "announced in advance"). The seed's holder knows every
 * outcome of a beacon it may choose at the draw; only a value fixed before the close (a future round of a
 * public beacon, named while the raffle was open) cannot be steered. So a raffle that announced a round needs its
 * value, and one that announced none takes none.
 */
export function beaconRefusal(
  announced: string | null,
  given: string | null,
): { code: 'BEACON_NOT_ANNOUNCED' | 'BEACON_REQUIRED'; message: string } | null {
  if (given !== null && announced === null)
    return {
      code: 'BEACON_NOT_ANNOUNCED',
      message:
        'This raffle announced no beacon before its close (draw_beacon_round): a beacon chosen at the draw could pick the winner. Draw without one.',
    };
  if (given === null && announced !== null)
    return {
      code: 'BEACON_REQUIRED',
      message: `This raffle announced the beacon "${announced}": give that round's value as beacon.`,
    };
  return null;
}
