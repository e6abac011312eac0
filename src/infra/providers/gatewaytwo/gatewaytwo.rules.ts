import { createHmac } from 'node:crypto';
import { sameBytes } from '#app/common/crypto/constant-time.js';
import type { GatewayTwoOutcome, GatewayTwoWebhookEvent } from './gatewaytwo.types.js';

/**
 * Order state → our outcome. `authorised` stays pending: we create orders with automatic capture, so
 * the money is ours only once the gateway reports `completed` (an authorisation can still lapse or be
 * voided). States we do not know also stay pending, so reconciliation keeps asking rather than guess.
 * The gateway's older API writes states in capitals; both are read.
 */
export function mapOrderState(state: string): GatewayTwoOutcome {
  switch (state.toLowerCase()) {
    case 'completed':
      return 'succeeded';
    case 'cancelled':
      return 'cancelled';
    case 'failed':
      return 'failed';
    default:
      return 'pending';
  }
}

/** How far the webhook's timestamp may be from our clock, either way. */
export const SIGNATURE_TOLERANCE_MS = 5 * 60 * 1000;

export interface SignatureCheck {
  rawBody: Buffer | string;
  /** Header `Revolut-Request-Timestamp`: milliseconds since the epoch. */
  timestampHeader: string | undefined;
  /** Header `Revolut-Signature`: one or more `v1=<hex>`, separated by commas or spaces. */
  signatureHeader: string | undefined;
  secret: string;
  now: Date | number;
}

export type SignatureVerdict =
  { valid: true } | { valid: false; reason: 'missing' | 'malformed' | 'stale' | 'mismatch' };

function hmac(secret: string, timestamp: string, rawBody: Buffer | string): Buffer {
  return createHmac('sha256', secret).update(`v1.${timestamp}.`).update(rawBody).digest();
}

/**
 * Checks `Revolut-Signature` over `v1.{timestamp}.{raw body}` (HMAC-SHA256). During a secret rotation the
 * header carries several `v1=` values and one match suffices; each is compared in constant time.
 */
export function verifyWebhookSignature(check: SignatureCheck): SignatureVerdict {
  const { timestampHeader, signatureHeader } = check;
  if (!timestampHeader || !signatureHeader) return { valid: false, reason: 'missing' };
  if (!/^\d{1,16}$/.test(timestampHeader)) return { valid: false, reason: 'malformed' };
  const now = typeof check.now === 'number' ? check.now : check.now.getTime();
  if (Math.abs(now - Number(timestampHeader)) > SIGNATURE_TOLERANCE_MS)
    return { valid: false, reason: 'stale' };
  const candidates = signatureHeader
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((part) => /^v1=([0-9a-fA-F]{64})$/.exec(part)?.[1])
    .filter((hex): hex is string => hex !== undefined)
    .map((hex) => Buffer.from(hex, 'hex'));
  if (!candidates.length) return { valid: false, reason: 'malformed' };
  const expected = hmac(check.secret, timestampHeader, check.rawBody);
  // Compare against every candidate (no early exit), so timing says nothing about which one matched.
  const matches = candidates.filter((candidate) => sameBytes(candidate, expected)).length;
  return matches > 0 ? { valid: true } : { valid: false, reason: 'mismatch' };
}

/** The gateway's side, for the fakes and tests: the `Revolut-Signature` header value. */
export function signWebhook(input: { rawBody: Buffer | string; timestamp: string; secret: string }): string {
  return `v1=${hmac(input.secret, input.timestamp, input.rawBody).toString('hex')}`;
}

/** Checks a (signature-verified) body names an event and an order. */
export function parseWebhookEvent(body: unknown): GatewayTwoWebhookEvent | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const { event, order_id, merchant_order_ext_ref } = body as Record<string, unknown>;
  if (typeof event !== 'string' || !event || typeof order_id !== 'string' || !order_id) return undefined;
  return {
    event,
    order_id,
    merchant_order_ext_ref: typeof merchant_order_ext_ref === 'string' ? merchant_order_ext_ref : undefined,
  };
}

/** The inbox's unique key for an event: one order reports each kind of event once. */
export function webhookEventKey(event: GatewayTwoWebhookEvent): string {
  return `${event.order_id}:${event.event}`;
}
