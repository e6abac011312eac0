/** What a gatewayone result code means for our transaction (DESIGN §7). */
export type GatewayOneOutcome = 'succeeded' | 'review' | 'pending' | 'failed';

export type { GatewayOneSettings } from '#app/config/gateway-config.js';

export interface CreateCheckoutInput {
  amountCents: number;
  currency: string;
  /** Our order id: the reference the gateway files the payment under, and looks it up by. */
  merchantTransactionId: string;
  /** Sent as `customParameters[KEY]=value`; echoed in results and webhooks. */
  customParameters?: Record<string, string>;
  /** Ask for the payment widget's subresource-integrity hash. */
  integrity?: boolean;
  shopperResultUrl?: string;
  /** Store the card for later charges (subscriptions); the result then carries a `registrationId`. */
  createRegistration?: boolean;
  /** `DB` (a debit, the default) or `PA` (a pre-authorisation: 0.00 with a registration checks the card alone). */
  paymentType?: 'DB' | 'PA';
}

export interface CheckoutCreated {
  /** The checkout (hosted payment form) id, `ndc` in results and webhooks. */
  id: string;
  resultCode: string;
  integrity?: string;
  raw: Record<string, unknown>;
}

/** A payment (or the still-open checkout) as the gateway reports it. */
export interface GatewayOnePayment {
  checkoutId?: string;
  paymentId?: string;
  paymentType?: string;
  resultCode: string;
  description: string;
  outcome: GatewayOneOutcome;
  amountCents?: number;
  currency?: string;
  merchantTransactionId?: string;
  registrationId?: string;
  customParameters?: Record<string, string>;
  raw: Record<string, unknown>;
}

export interface GatewayOneRefund {
  /** The refund's own payment id at the gateway. */
  id?: string;
  resultCode: string;
  description: string;
  outcome: GatewayOneOutcome;
  raw: Record<string, unknown>;
}

/** The decrypted body of a gatewayone webhook (DESIGN §7). */
export interface GatewayOneWebhookEvent {
  type: 'PAYMENT' | 'REGISTRATION' | 'SCHEDULE';
  action?: string;
  payload: {
    /** The gateway's payment id (or registration id for REGISTRATION events). */
    id: string;
    /** The checkout id. */
    ndc: string;
    result: { code: string; description?: string };
    /** Major units as text, "12.10". */
    amount?: string;
    currency?: string;
    merchantTransactionId?: string;
    registrationId?: string;
    customParameters?: Record<string, string>;
    timestamp?: string;
    [field: string]: unknown;
  };
}

/** The three parts of an encrypted webhook, hex-encoded as they arrive. */
export interface EncryptedWebhook {
  /** The `encryptedBody` field of the JSON body. */
  encryptedBody: string;
  /** Header `X-Initialization-Vector`. */
  ivHex: string;
  /** Header `X-Authentication-Tag`. */
  tagHex: string;
}
