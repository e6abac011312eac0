import type { PaymentTransaction } from './entities/payment-transaction.entity.js';
import type { PaymentHead } from './hooks/payment-hooks.js';

/**
 * The columns of a payment's head in SQL, from the row aliased `p`: what every path that settles a payment
 * reads of it (its JSON fields' few values extracted, never the whole documents).
 */
export const headColumns = (p: string): string =>
  [
    'id',
    'site_id',
    'user_id',
    'gateway',
    'checkout_id',
    'gateway_transaction_id',
    'status',
    'purpose',
    'raffle_id',
    'subscription_id',
    'amount_cents',
    'currency',
    'description',
    'spend_month',
    'new_account',
    'ip_address',
    'user_agent',
    'fulfilled_at',
    'fulfilment',
  ]
    .map((c) => `${p}.${c}`)
    .join(', ') +
  `, COALESCE((${p}.order_details->>'tickets')::integer, 0) AS tickets, ${p}.metadata->>'unfillable' AS unfillable` +
  `, ${p}.metadata->>'checkout_url' AS checkout_url, ${p}.metadata->>'kind' AS kind` +
  `, ${p}.metadata->>'buyer_paused_until' AS buyer_paused_until` +
  `, COALESCE(${p}.gateway_response->>'registrationId', ${p}.webhook_data->'payload'->>'registrationId') AS registration_id`;

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The head of a payment row already read whole. */
export function headOf(p: PaymentTransaction): PaymentHead {
  const tickets = Number(p.order_details.tickets ?? 0);
  return {
    id: p.id,
    site_id: p.site_id,
    user_id: p.user_id,
    gateway: p.gateway,
    checkout_id: p.checkout_id,
    gateway_transaction_id: p.gateway_transaction_id,
    status: p.status,
    purpose: p.purpose,
    raffle_id: p.raffle_id,
    subscription_id: p.subscription_id,
    amount_cents: p.amount_cents,
    currency: p.currency,
    tickets: Number.isFinite(tickets) ? tickets : 0,
    description: p.description,
    spend_month: p.spend_month,
    new_account: p.new_account,
    ip_address: p.ip_address,
    user_agent: p.user_agent,
    fulfilled_at: p.fulfilled_at,
    fulfilment: p.fulfilment,
    unfillable: str(p.metadata.unfillable),
    checkout_url: str(p.metadata.checkout_url),
    kind: str(p.metadata.kind),
    buyer_paused_until: str(p.metadata.buyer_paused_until),
    registration_id:
      str(p.gateway_response?.registrationId) ??
      str((p.webhook_data?.payload as Record<string, unknown> | undefined)?.registrationId),
  };
}
