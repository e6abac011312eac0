import type { StatusStage } from './entities/merch-order.entity.js';

export interface PricedProduct {
  id: string;
  amount_cents: number;
  currency: string;
  active: boolean;
}

export interface PricedLine<P extends PricedProduct> {
  product: P;
  copies: number;
  /** Unit price × copies. */
  cents: number;
}

export type Priced<P extends PricedProduct> =
  | { ok: true; lines: PricedLine<P>[]; amountCents: number; currency: string }
  | { ok: false; code: 'PRODUCT_NOT_AVAILABLE' | 'MIXED_CURRENCIES'; productId?: string };

/**
 * The server's price of a merch order (DESIGN §10): each product's price × copies, no shipping charge.
 * Every product must be one of the site's active products (`products` holds only the site's), and one
 * order is paid in one currency.
 */
export function priceOrder<P extends PricedProduct>(
  products: ReadonlyMap<string, P>,
  items: ReadonlyArray<{ merch_product_id: string; copies: number }>,
): Priced<P> {
  const lines: PricedLine<P>[] = [];
  for (const item of items) {
    const product = products.get(item.merch_product_id);
    // A product priced 0 (possible before products had to cost at least 1) cannot be paid for through a gateway.
    if (!product || !product.active || product.amount_cents < 1)
      return { ok: false, code: 'PRODUCT_NOT_AVAILABLE', productId: item.merch_product_id };
    lines.push({ product, copies: item.copies, cents: product.amount_cents * item.copies });
  }
  const currencies = new Set(lines.map((l) => l.product.currency));
  if (currencies.size !== 1) return { ok: false, code: 'MIXED_CURRENCIES' };
  return {
    ok: true,
    lines,
    amountCents: lines.reduce((sum, l) => sum + l.cents, 0),
    currency: lines[0].product.currency,
  };
}

/** The provider's stage in ours (DESIGN §7); null for one we do not follow. */
export function stageOf(providerStage: string): StatusStage | null {
  switch (providerStage) {
    case 'InProgress':
      return 'in_progress';
    case 'Complete':
      return 'complete';
    case 'Cancelled':
      return 'cancelled';
    case 'Failed':
      return 'failed';
    default:
      return null;
  }
}

const RANK: Record<StatusStage, number> = {
  awaiting_payment: 0,
  submitted: 1,
  in_progress: 2,
  complete: 3,
  cancelled: 3,
  failed: 3,
};

export const isFinal = (stage: StatusStage): boolean => RANK[stage] === 3;

/**
 * Where an order moves when the provider's record says `target` (DESIGN §5): only forward, never out of
 * a final stage, never back to awaiting payment; null when it stays where it is.
 */
export function nextStage(current: StatusStage, target: StatusStage | null): StatusStage | null {
  if (!target || target === current || isFinal(current) || current === 'awaiting_payment') return null;
  return RANK[target] > RANK[current] ? target : null;
}

/**
 * Refusals of the caller, not of the order: our key (401, 403) or our base URL (404). The provider turns such a
 * request away before it looks at the order or its idempotencyKey, so it says nothing about an order an
 * earlier attempt may have made, and the order itself is not at fault: like an outage, it is waited out.
 */
const REFUSES_THE_CALLER = new Set([401, 403, 404]);

/** Whether a provider's answer refuses the order itself (a 4xx about the request), which no retry mends. */
export const refusesTheOrder = (error: { kind: 'unavailable' | 'rejected'; httpStatus?: number }): boolean =>
  error.kind === 'rejected' && !REFUSES_THE_CALLER.has(error.httpStatus ?? 0);

/**
 * What a submission attempt that got no order back leads to. `fail` (the order fails and is refunded):
 * the provider refused it, or the last attempt was provably never processed and no earlier one may have
 * been either. `retry`: the job's own back-off. `later`: the last attempt ended and the provider may hold
 * the order (made under our idempotencyKey while its answer was lost), so it is neither failed nor refunded:
 * the order waits and is sent again later with the same key, which the provider answers with the order.
 */
export function afterSubmitFailure(attempt: {
  refused: boolean;
  mayHaveActed: boolean;
  lastAttempt: boolean;
  earlierMayHaveActed: boolean;
}): 'fail' | 'retry' | 'later' {
  if (attempt.refused) return 'fail';
  if (!attempt.lastAttempt) return 'retry';
  return attempt.mayHaveActed || attempt.earlierMayHaveActed ? 'later' : 'fail';
}

/**
 * Our stage once the provider answered a submission with its order (`Created`, or `AlreadyExists` after a
 * lost answer). A final stage there is news (the order was cancelled or finished while we did not know its
 * id, so its callbacks found nothing to re-read) and is applied as a callback's would be; anything else is
 * `submitted` (DESIGN §7: after the first send the stage is `submitted`; the provider starts every order
 * `InProgress`).
 */
export function stageOnSubmit(providerStage: string): StatusStage {
  const theirs = stageOf(providerStage);
  return theirs && isFinal(theirs) ? theirs : 'submitted';
}

/** A cancelled or failed order gives the buyer's money back. */
export const refundsOn = (stage: StatusStage): boolean => stage === 'cancelled' || stage === 'failed';

/** Print areas → the provider's `assets` list. */
export function assetList(assets: Record<string, string>): Array<{ printArea: string; url: string }> {
  return Object.entries(assets).map(([printArea, url]) => ({ printArea, url }));
}

/** The address fields a merch order cannot ship without (the Merch order's required ones). */
export const REQUIRED_SHIPPING = [
  'recipient_name',
  'address_line1',
  'town_or_city',
  'postal_or_zip_code',
  'country_code',
] as const;

/** Which required address fields `fields` lacks (absent, or blank). */
export function missingShipping(fields: Readonly<Record<string, unknown>>): string[] {
  return REQUIRED_SHIPPING.filter((k) => typeof fields[k] !== 'string' || !fields[k].trim());
}

/** Most copies of one product in an order (as `POST /merch/orders` allows per line). */
export const MAX_COPIES = 100;

/**
 * The provider's shipments or charges (a list on its record) as the contract's `object`: keyed by the
 * provider's own id, which is how an admin and the provider's callbacks refer to one; an entry without an
 * id (none today) keeps its position as its key rather than being dropped. Stored as the provider sent it.
 */
export function byProviderId(list: unknown): Record<string, unknown> {
  const keyed: Record<string, unknown> = {};
  if (!Array.isArray(list)) return keyed;
  list.forEach((entry: unknown, position) => {
    const id = (entry as { id?: unknown } | null)?.id;
    const key = typeof id === 'string' && id !== '' && !(id in keyed) ? id : String(position);
    keyed[key] = entry;
  });
  return keyed;
}
