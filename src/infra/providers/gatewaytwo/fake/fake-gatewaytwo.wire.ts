import { minorToMajorString } from '#app/common/money.js';
import { escapeHtml, page } from '#app/infra/providers/fake-support/fake-gateway.js';
import type { GatewayTwoOrderState } from '#app/infra/providers/gatewaytwo/gatewaytwo.types.js';

// What the fake gatewaytwo says: its JSON shape and its hosted page.

export interface FakeOrder {
  id: string;
  token: string;
  state: GatewayTwoOrderState;
  amount: number;
  currency: string;
  description?: string;
  reference?: string;
  redirectUrl?: string;
  customerEmail?: string;
  createdAt: Date;
  updatedAt: Date;
  refunds: { id: string; amount: number; description?: string }[];
}

export function orderJson(order: FakeOrder, baseUrl: string): Record<string, unknown> {
  const refunded = order.refunds.reduce((sum, r) => sum + r.amount, 0);
  return {
    id: order.id,
    token: order.token,
    type: 'payment',
    state: order.state,
    created_at: order.createdAt.toISOString(),
    updated_at: order.updatedAt.toISOString(),
    amount: order.amount,
    currency: order.currency,
    outstanding_amount: order.state === 'completed' ? 0 : order.amount,
    refunded_amount: refunded,
    capture_mode: 'automatic',
    checkout_url: `${baseUrl.replace(/\/+$/, '')}/pay/${order.id}`,
    description: order.description,
    merchant_order_data: order.reference ? { reference: order.reference } : undefined,
    redirect_url: order.redirectUrl,
    customer: order.customerEmail ? { email: order.customerEmail } : undefined,
  };
}

/** The hosted payment page: Pay / Decline / Cancel, posting back to `action`. */
export function payPageHtml(order: FakeOrder, action: string): string {
  return page(
    'gatewaytwo sandbox payment',
    `<h1>gatewaytwo sandbox</h1>
<p>Pay <strong>${escapeHtml(minorToMajorString(order.amount, order.currency))} ${escapeHtml(order.currency)}</strong>
for ${escapeHtml(order.description ?? 'an order')}. No money moves here.</p>
${
  order.state === 'pending'
    ? `<form method="post" action="${escapeHtml(action)}">
<button name="decision" value="pay">Pay</button><button name="decision" value="decline">Decline</button>
<button name="decision" value="cancel">Cancel</button></form>`
    : `<p>This order is ${escapeHtml(order.state)}.</p>`
}`,
  );
}
