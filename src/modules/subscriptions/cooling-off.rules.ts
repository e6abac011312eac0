/**
 * The cooling-off cancellation's money (DESIGN §5): whether the window is open, and what a cancellation in it
 * gives back for the period's payment, as plain functions.
 */

/**
 * What a cancellation inside the cooling-off window gives back: the period's amount less the pro-rata
 * value of the entry credits already spent in it (a credit is worth amount ÷ credits per period),
 * rounded half-up to the cent; never below zero. With no credits in the period, all of it.
 */
export function coolingOffRefund(input: {
  amountCents: number;
  creditsPerPeriod: number;
  creditsUsed: number;
}): { refundCents: number; spentValueCents: number; arithmetic: string } {
  const { amountCents, creditsPerPeriod } = input;
  const used = Math.min(Math.max(0, input.creditsUsed), creditsPerPeriod);
  const spentValueCents = creditsPerPeriod > 0 ? Math.round((amountCents * used) / creditsPerPeriod) : 0;
  const refundCents = Math.max(0, amountCents - spentValueCents);
  const arithmetic =
    creditsPerPeriod > 0
      ? `${amountCents} − round(${amountCents} × ${used} / ${creditsPerPeriod}) = ${amountCents} − ${spentValueCents} = ${refundCents}`
      : `${amountCents} (no entry credits in the period) = ${refundCents}`;
  return { refundCents, spentValueCents, arithmetic };
}

/**
 * The entry credits the period's payment bought, which a cooling-off refund prices its credits by: the
 * membership's credits per period when that payment was asked for (its amount fixed). An upgrade after it
 * changes them without a payment (credits granted, or a dearer tier with fewer), and its history event keeps
 * the credits it changed from, so the first upgrade since names what was paid for. An upgrade before it, even
 * within the period (a renewal retried after an upgrade while past due), was paid for at its price.
 */
export function creditsPaidFor(s: {
  payment_asked_at: Date | null;
  entry_credits_per_period: number;
  metadata: Record<string, unknown>;
}): number {
  const since = s.payment_asked_at?.getTime() ?? Number.NEGATIVE_INFINITY;
  const history = Array.isArray(s.metadata.history)
    ? (s.metadata.history as Array<{ event?: unknown; at?: unknown; from?: unknown }>)
    : [];
  for (const e of history) {
    if (e.event !== 'upgraded' || typeof e.at !== 'string' || Date.parse(e.at) < since) continue;
    const credits = (e.from as { credits?: unknown } | undefined)?.credits;
    if (typeof credits === 'number') return credits;
  }
  return s.entry_credits_per_period;
}

export function inCoolingOff(coolingOffExpiry: Date | null, now: Date): boolean {
  return coolingOffExpiry !== null && now < coolingOffExpiry;
}
