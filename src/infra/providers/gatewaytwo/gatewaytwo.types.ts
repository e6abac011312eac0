/** Order states at gatewaytwo (DESIGN §7). */
export type GatewayTwoOrderState =
  'pending' | 'processing' | 'authorised' | 'completed' | 'cancelled' | 'failed';

/** What an order state means for our transaction. */
export type GatewayTwoOutcome = 'pending' | 'succeeded' | 'cancelled' | 'failed';

export type { GatewayTwoSettings } from '#app/config/gateway-config.js';

export interface CreateOrderInput {
  amountCents: number;
  currency: string;
  description: string;
  /** Our order id, stored by the gateway as `merchant_order_data.reference`. */
  reference: string;
  redirectUrl?: string;
  customerEmail?: string;
}

export interface OrderCreated {
  id: string;
  /** The public token its payment widget takes. */
  token: string;
  state: string;
  checkoutUrl: string;
  raw: Record<string, unknown>;
}

export interface GatewayTwoOrder {
  id: string;
  state: string;
  amountCents: number;
  currency: string;
  /** Our order id, when the order carries one. */
  reference?: string;
  /** What its refunds gave back in all, in minor units, when the gateway says (`refunded_amount`). */
  refundedCents?: number;
  outcome: GatewayTwoOutcome;
  raw: Record<string, unknown>;
}

export interface GatewayTwoRefund {
  /** The refund's own order id at the gateway. */
  id: string;
  state: string;
  amountCents: number;
  currency: string;
  outcome: GatewayTwoOutcome;
  raw: Record<string, unknown>;
}

/** The body of a gatewaytwo webhook (DESIGN §7). */
export interface GatewayTwoWebhookEvent {
  event: string;
  order_id: string;
  merchant_order_ext_ref?: string;
}
