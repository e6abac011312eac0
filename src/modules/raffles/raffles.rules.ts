import { createHash, randomBytes } from 'node:crypto';
import type { FieldError } from '#app/common/errors/app.exception.js';
import type { Raffle, Upsell } from './entities/raffle.entity.js';

export type RaffleFlags = Pick<
  Raffle,
  'active' | 'draft' | 'archived' | 'closed' | 'is_drawn' | 'start_date' | 'end_date'
>;
export type RaffleCounts = Pick<Raffle, 'current_entries' | 'total_entries_available'>;

/** Fields a raffle cannot be without: `null` in an update is refused rather than stored. */
export const RAFFLE_REQUIRED_FIELDS = [
  'item_id',
  'name',
  'currency',
  'price_display',
  'points_required',
  'points_enabled',
  'total_entries_available',
  'allow_free_entries',
  'start_date',
  'end_date',
  'discount_tiers',
  'upsells',
  'mailer_email_params',
  'active',
  'archived',
] as const;

export function ticketsLeft(r: RaffleCounts): number {
  return Math.max(0, r.total_entries_available - r.current_entries);
}

/**
 * `is_active`: published, switched on, not closed, drawn or archived, and now inside
 * [`start_date`, `end_date`): the raffle is running.
 */
export function isRunning(r: RaffleFlags, now: Date): boolean {
  return (
    r.active &&
    !r.draft &&
    !r.archived &&
    !r.closed &&
    !r.is_drawn &&
    r.start_date.getTime() <= now.getTime() &&
    now.getTime() < r.end_date.getTime()
  );
}

/** `can_join` (DESIGN §5): running, and tickets left. */
export function canJoin(r: RaffleFlags & RaffleCounts, now: Date): boolean {
  return isRunning(r, now) && ticketsLeft(r) > 0;
}

export interface RaffleShape {
  start_date: Date;
  end_date: Date;
  max_entries: number | null;
  total_entries_available: number;
  upsells: ReadonlyArray<Pick<Upsell, 'quantity'>>;
  instant_wins?: ReadonlyArray<{ prize: string }>;
}

/** Cross-field rules of a raffle as it would be stored (after a create, or an update merged in). */
export function raffleShapeErrors(r: RaffleShape): FieldError[] {
  const errors: FieldError[] = [];
  if (r.end_date.getTime() <= r.start_date.getTime())
    errors.push({ field: 'end_date', message: 'end_date must be after start_date' });
  if (r.max_entries !== null && r.max_entries > r.total_entries_available)
    errors.push({ field: 'max_entries', message: 'max_entries cannot exceed total_entries_available' });
  const sizes = r.upsells.map((u) => u.quantity);
  if (new Set(sizes).size !== sizes.length)
    errors.push({ field: 'upsells', message: 'each upsell needs its own quantity' });
  // A bundle bigger than one entrant may hold, or than the raffle has, is shown and then refused to every buyer.
  const cap =
    r.max_entries !== null && r.max_entries < r.total_entries_available
      ? { field: 'max_entries', most: r.max_entries }
      : { field: 'total_entries_available', most: r.total_entries_available };
  const biggest = Math.max(0, ...sizes);
  if (biggest > cap.most)
    errors.push({
      field: 'upsells',
      message: `an upsell of ${biggest} tickets is more than ${cap.field} (${cap.most}): nobody could buy it`,
    });
  // Wins are counted by prize text: two lines of one prize would each count the other's wins as their own.
  const prizes = (r.instant_wins ?? []).map((w) => w.prize);
  if (new Set(prizes).size !== prizes.length)
    errors.push({
      field: 'instant_wins',
      message: 'each instant-win prize needs its own text: give one line its count',
    });
  return errors;
}

export type Refusal = { status: 409 | 422; code: string; message: string } | null;

export function publishRefusal(
  r: RaffleFlags & Partial<Pick<Raffle, 'instant_wins' | 'total_entries_available'>>,
  now: Date,
): Refusal {
  if (!r.draft) return { status: 409, code: 'NOT_DRAFT', message: 'Only a draft can be published.' };
  if (r.end_date.getTime() <= now.getTime())
    return { status: 422, code: 'ENDS_IN_PAST', message: 'The raffle’s end_date has passed.' };
  const instant = (r.instant_wins ?? []).reduce((sum, w) => sum + w.count, 0);
  if (r.total_entries_available !== undefined && instant > r.total_entries_available)
    return {
      status: 422,
      code: 'INSTANT_WINS_EXCEED_TICKETS',
      message: 'The instant-win prizes need more winning tickets than the raffle has.',
    };
  return null;
}

/** What a raffle sells and when: final once it is closed (its ticket list and hash are published). */
export const SELLING_FIELDS = [
  'total_entries_available',
  'max_entries',
  'price_cents',
  'currency',
  'points_required',
  'points_enabled',
  'allow_free_entries',
  'start_date',
  'end_date',
  'discount_tiers',
  'upsells',
  // The beacon the draw will take: announced while the raffle is open, so it cannot be chosen at the draw.
  'draw_beacon_round',
] as const;

/** JSON with object keys in one order: a stored jsonb value comes back with its keys ordered by PostgreSQL. */
const canonical = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(canonical)
    : v && typeof v === 'object' && !(v instanceof Date)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>)
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([k, x]) => [k, canonical(x)]),
        )
      : v;

const sameValue = (a: unknown, b: unknown): boolean =>
  a instanceof Date && b instanceof Date
    ? a.getTime() === b.getTime()
    : JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

/**
 * Why an edit of a published raffle is refused, or null. A closed or drawn raffle's selling fields are final:
 * raising its total would show tickets left that nobody can buy (nothing reopens a closed raffle). A running
 * raffle's end cannot be moved into the past: the close job would end the draw for good, which is the close
 * route's to do. Fields sent unchanged (a form sending the whole raffle back) are not changes.
 */
export function updateRefusal(
  current: RaffleFlags & Partial<Record<(typeof SELLING_FIELDS)[number], unknown>>,
  changes: Partial<Record<(typeof SELLING_FIELDS)[number], unknown>>,
  now: Date,
): Refusal {
  if (current.draft) return null;
  const changed = SELLING_FIELDS.filter(
    (f) => changes[f] !== undefined && !sameValue(changes[f], current[f]),
  );
  if ((current.closed || current.is_drawn) && changed.length)
    return {
      status: 409,
      code: 'ALREADY_CLOSED',
      message: `The raffle is closed: ${changed.join(', ')} can no longer change.`,
    };
  // Once sales have ended the ticket list is final, even before the close job has run: a beacon round named
  // then could be one whose value is already known, chosen to suit an entry.
  if (changed.includes('draw_beacon_round') && current.end_date.getTime() <= now.getTime())
    return {
      status: 409,
      code: 'SALES_ENDED',
      message: 'The raffle’s sales have ended: draw_beacon_round can no longer change.',
    };
  const end = changes.end_date;
  if (end instanceof Date && changed.includes('end_date') && end.getTime() <= now.getTime())
    return {
      status: 422,
      code: 'ENDS_IN_PAST',
      message: 'A running raffle’s end_date cannot move into the past; close it to end it now.',
    };
  return null;
}

export function closeRefusal(r: RaffleFlags): Refusal {
  if (r.draft) return { status: 409, code: 'NOT_PUBLISHED', message: 'A draft cannot be closed.' };
  if (r.closed) return { status: 409, code: 'ALREADY_CLOSED', message: 'The raffle is already closed.' };
  return null;
}

/** Whether one order of `tickets` could be entered: tickets left, and no more than one user may hold. */
export function orderFitRefusal(r: RaffleCounts & Pick<Raffle, 'max_entries'>, tickets: number): Refusal {
  if (r.max_entries !== null && tickets > r.max_entries)
    return {
      status: 422,
      code: 'MAX_ENTRIES_EXCEEDED',
      message: `One entrant may hold at most ${r.max_entries} tickets.`,
    };
  if (tickets > ticketsLeft(r))
    return { status: 422, code: 'NOT_ENOUGH_TICKETS', message: `Only ${ticketsLeft(r)} tickets are left.` };
  return null;
}

/** sha256 of the seed's bytes, hex: the public commitment to a secret draw seed (DESIGN §6). */
export function seedCommitment(seedHex: string): string {
  return createHash('sha256').update(Buffer.from(seedHex, 'hex')).digest('hex');
}

/** A fresh secret draw seed (32 random bytes, hex) and its commitment. */
export function newDrawSeed(random: (size: number) => Buffer = randomBytes): { seed: string; hash: string } {
  const seed = random(32).toString('hex');
  return { seed, hash: seedCommitment(seed) };
}
