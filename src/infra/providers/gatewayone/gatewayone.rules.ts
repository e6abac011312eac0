import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { EncryptedWebhook, GatewayOneOutcome, GatewayOneWebhookEvent } from './gatewayone.types.js';

// DESIGN §7, verbatim.
const SUCCEEDED = /^(000\.000\.|000\.100\.1|000\.[36]|000\.400\.[1][12]0)/;
const REVIEW = /^(000\.400\.0[^3]|000\.400\.100)/;
const PENDING = /^(000\.200)/;

/** `000.100.110` → succeeded, `000.400.000` → review, `000.200.000` → pending, anything else → failed. */
export function classifyResultCode(code: string): GatewayOneOutcome {
  if (SUCCEEDED.test(code)) return 'succeeded';
  if (REVIEW.test(code)) return 'review';
  if (PENDING.test(code)) return 'pending';
  return 'failed';
}

export type WebhookErrorReason = 'malformed' | 'unauthentic' | 'not-an-event';

/** A webhook body that must be refused (401) and must change nothing. */
export class GatewayOneWebhookError extends Error {
  constructor(
    readonly reason: WebhookErrorReason,
    message: string,
  ) {
    super(message);
    this.name = 'GatewayOneWebhookError';
  }
}

const HEX = /^(?:[0-9a-fA-F]{2})+$/;
const TAG_BYTES = 16;
const IV_BYTES = 12;

function hexBytes(value: unknown, what: string, length?: number): Buffer {
  if (typeof value !== 'string' || !HEX.test(value))
    throw new GatewayOneWebhookError('malformed', `${what} is not hexadecimal`);
  const bytes = Buffer.from(value, 'hex');
  if (length !== undefined && bytes.length !== length)
    throw new GatewayOneWebhookError('malformed', `${what} must be ${length} bytes`);
  return bytes;
}

function keyBytes(keyHex: string): Buffer {
  if (!/^[0-9a-fA-F]{64}$/.test(keyHex)) throw new Error('the webhook key must be 64 hexadecimal characters');
  return Buffer.from(keyHex, 'hex');
}

/**
 * Opens an AES-256-GCM webhook body. A changed body, IV or tag, or the wrong key, fails authentication
 * and throws `GatewayOneWebhookError('unauthentic')`; a plaintext that is not a JSON object throws
 * `'not-an-event'`. The tag must be the full 16 bytes: Node would accept a truncated one.
 */
export function decryptWebhook(webhook: EncryptedWebhook, keyHex: string): Record<string, unknown> {
  const key = keyBytes(keyHex);
  const body = hexBytes(webhook.encryptedBody, 'encryptedBody');
  const iv = hexBytes(webhook.ivHex, 'the initialization vector');
  const tag = hexBytes(webhook.tagHex, 'the authentication tag', TAG_BYTES);
  let plaintext: string;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    decipher.setAuthTag(tag);
    plaintext = Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  } catch {
    throw new GatewayOneWebhookError('unauthentic', 'the webhook failed authentication');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(plaintext);
  } catch {
    throw new GatewayOneWebhookError('not-an-event', 'the webhook plaintext is not JSON');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new GatewayOneWebhookError('not-an-event', 'the webhook plaintext is not a JSON object');
  return parsed as Record<string, unknown>;
}

/** The gateway's side of `decryptWebhook`, for the fakes and tests. A fresh random IV unless given. */
export function encryptWebhook(
  plaintext: object,
  keyHex: string,
  iv: Buffer = randomBytes(IV_BYTES),
): EncryptedWebhook {
  const cipher = createCipheriv('aes-256-gcm', keyBytes(keyHex), iv, { authTagLength: TAG_BYTES });
  const body = Buffer.concat([cipher.update(JSON.stringify(plaintext), 'utf8'), cipher.final()]);
  return {
    encryptedBody: body.toString('hex'),
    ivHex: iv.toString('hex'),
    tagHex: cipher.getAuthTag().toString('hex'),
  };
}

const EVENT_TYPES = new Set(['PAYMENT', 'REGISTRATION', 'SCHEDULE']);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Checks a decrypted plaintext has what processing relies on: a known type, a payload id and a result code. */
export function parseWebhookEvent(plaintext: Record<string, unknown>): GatewayOneWebhookEvent {
  const { type, payload } = plaintext;
  if (typeof type !== 'string' || !EVENT_TYPES.has(type))
    throw new GatewayOneWebhookError('not-an-event', 'unknown webhook type');
  if (!isRecord(payload) || typeof payload.id !== 'string' || !payload.id)
    throw new GatewayOneWebhookError('not-an-event', 'the webhook payload has no id');
  const { result } = payload;
  if (!isRecord(result) || typeof result.code !== 'string')
    throw new GatewayOneWebhookError('not-an-event', 'the webhook payload has no result code');
  return plaintext as unknown as GatewayOneWebhookEvent;
}

/** The inbox's unique key for an event (DESIGN §7: deduplicate on payload.id + result.code). */
export function webhookEventKey(event: GatewayOneWebhookEvent): string {
  return `${event.payload.id}:${event.payload.result.code}`;
}
