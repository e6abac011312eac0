import { minorToMajor, roundHalfUp, scaleDecimal } from '#app/common/money.js';
import type { DiscountTier, Upsell } from './entities/raffle.entity.js';

/**
 * Server-side pricing of a raffle order (DESIGN §6), in exact integer arithmetic: percentages carry up
 * to four decimals, so every line is an exact multiple of 10^-6 of a minor unit, and the order total is
 * rounded half-up to the minor unit (the currency's own: a penny, a yen) once, at the end.
 */
export const PERCENT_DECIMALS = 4;
const WHOLE = 10n ** BigInt(PERCENT_DECIMALS + 2); // 100 % with four decimals

/** Why an order cannot be priced; `status` 400 for a malformed choice, 422 for one the raffle does not offer. */
export class PricingError extends Error {
  constructor(
    readonly status: 400 | 422,
    readonly code: string,
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'PricingError';
  }
}

export interface PricedRaffle {
  price_cents: number;
  currency: string;
  discount_tiers: DiscountTier[];
  upsells: Upsell[];
}

/** An upsell as a client names it: by bundle size (`quantity`, or its alias `qty`), optionally its percentage. */
export interface ChosenUpsell {
  quantity?: number | null;
  qty?: number | null;
  percentage?: number | null;
}

export interface OrderPrice {
  currency: string;
  unit_cents: number;
  /** Single tickets, priced with the best tier. */
  quantity: number;
  /** The tier applied to the single tickets, or null. */
  tier: DiscountTier | null;
  /** The raffle's bundles chosen, as the raffle defines them. */
  upsells: Upsell[];
  /** Tickets the order buys: single tickets plus every bundle's. */
  tickets: number;
  /** Every ticket at the unit price. */
  gross_cents: number;
  amount_cents: number;
  discount_cents: number;
}

/** The fraction of the price still paid after `percent` % off, in units of 1/WHOLE. */
function paidShare(percent: number): bigint {
  return WHOLE - scaleDecimal(percent, PERCENT_DECIMALS);
}

/** The largest discount among the tiers whose `min_quantity` ≤ `quantity` (the first such on a tie). */
export function bestTier(tiers: readonly DiscountTier[], quantity: number): DiscountTier | null {
  let best: DiscountTier | null = null;
  for (const tier of tiers) {
    if (tier.min_quantity <= quantity && (!best || tier.discount > best.discount)) best = tier;
  }
  return best;
}

/** The bundle size a choice names: `quantity`, or `qty` (legacy alias); both sent must agree. */
export function chosenSize(choice: ChosenUpsell, field = 'upsells'): number {
  const { quantity, qty } = choice;
  if (quantity != null && qty != null && quantity !== qty)
    throw new PricingError(400, 'UPSELL_QTY_MISMATCH', field, 'qty and quantity of an upsell must agree');
  const size = quantity ?? qty;
  if (size == null || !Number.isInteger(size) || size < 1)
    throw new PricingError(400, 'VALIDATION_FAILED', field, 'an upsell needs a quantity of at least 1');
  return size;
}

/** The raffle's bundles the client chose, matched by size (and percentage when sent); each at most once. */
export function matchUpsells(offered: readonly Upsell[], chosen: readonly ChosenUpsell[]): Upsell[] {
  const seen = new Set<number>();
  return chosen.map((choice, i) => {
    const field = `upsells[${i}]`;
    const size = chosenSize(choice, field);
    const match = offered.find((u) => u.quantity === size);
    if (!match || (choice.percentage != null && choice.percentage !== match.percentage))
      throw new PricingError(
        422,
        'UNKNOWN_UPSELL',
        field,
        `This raffle offers no bundle of ${size} tickets like that.`,
      );
    if (seen.has(size))
      throw new PricingError(
        422,
        'UPSELL_REPEATED',
        field,
        `The bundle of ${size} tickets is chosen more than once.`,
      );
    seen.add(size);
    return match;
  });
}

/**
 * `quantity` single tickets at the best tier's discount plus each chosen bundle at its own percentage
 * (tiers do not apply to bundles), rounded half-up to the cent once on the total.
 */
export function priceOrder(
  raffle: PricedRaffle,
  quantity: number,
  chosen: readonly ChosenUpsell[] = [],
): OrderPrice {
  if (!Number.isSafeInteger(quantity) || quantity < 0)
    throw new PricingError(
      400,
      'VALIDATION_FAILED',
      'quantity',
      'quantity must be a whole number, 0 or more',
    );
  const upsells = matchUpsells(raffle.upsells, chosen);
  const tickets = quantity + upsells.reduce((sum, u) => sum + u.quantity, 0);
  if (tickets < 1)
    throw new PricingError(
      400,
      'VALIDATION_FAILED',
      'quantity',
      'an order needs at least one ticket or bundle',
    );
  const unit = BigInt(raffle.price_cents);
  const tier = quantity > 0 ? bestTier(raffle.discount_tiers, quantity) : null;
  let exact = unit * BigInt(quantity) * paidShare(tier?.discount ?? 0);
  for (const u of upsells) exact += unit * BigInt(u.quantity) * paidShare(u.percentage);
  const amount = Number(roundHalfUp(exact, WHOLE));
  const gross = raffle.price_cents * tickets;
  return {
    currency: raffle.currency,
    unit_cents: raffle.price_cents,
    quantity,
    tier,
    upsells,
    tickets,
    gross_cents: gross,
    amount_cents: amount,
    discount_cents: gross - amount,
  };
}

/** A bundle's saving in cents at `unitCents` a ticket, rounded half-up. */
export function upsellSavingCents(
  unitCents: number,
  upsell: Pick<Upsell, 'quantity' | 'percentage'>,
): number {
  const exact =
    BigInt(unitCents) * BigInt(upsell.quantity) * scaleDecimal(upsell.percentage, PERCENT_DECIMALS);
  return Number(roundHalfUp(exact, WHOLE));
}

/** Upsells as stored: `qty` mirrors `quantity`, `discount` is the saving in major units at the current price. */
export function normalizeUpsells(
  unitCents: number,
  currency: string,
  upsells: readonly ChosenUpsell[],
): Upsell[] {
  return upsells.map((u, i) => {
    const quantity = chosenSize(u, `upsells[${i}]`);
    const percentage = u.percentage ?? 0;
    return {
      quantity,
      qty: quantity,
      percentage,
      discount: minorToMajor(upsellSavingCents(unitCents, { quantity, percentage }), currency),
    };
  });
}
