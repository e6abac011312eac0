import { createHmac } from 'node:crypto';
import {
  mapOrderState,
  parseWebhookEvent,
  SIGNATURE_TOLERANCE_MS,
  signWebhook,
  verifyWebhookSignature,
  webhookEventKey,
} from './gatewaytwo.rules.js';

const SECRET = 'wsk_current';
const OLD_SECRET = 'wsk_previous';
const NOW = Date.UTC(2026, 10, 22, 10, 0, 0);
const BODY = '{"event":"ORDER_COMPLETED","order_id":"ord-1","merchant_order_ext_ref":"order-1"}';

const signed = (overrides: Partial<Parameters<typeof verifyWebhookSignature>[0]> = {}) => {
  const timestamp = String(NOW);
  return {
    rawBody: BODY,
    timestampHeader: timestamp,
    signatureHeader: signWebhook({ rawBody: BODY, timestamp, secret: SECRET }),
    secret: SECRET,
    now: NOW,
    ...overrides,
  };
};

describe('gatewaytwo order states map to our outcomes', () => {
  it.each([
    ['pending', 'pending'],
    ['processing', 'pending'],
    ['authorised', 'pending'],
    ['completed', 'succeeded'],
    ['COMPLETED', 'succeeded'],
    ['cancelled', 'cancelled'],
    ['failed', 'failed'],
    ['something-new', 'pending'],
  ])('%s → %s', (state, outcome) => {
    expect(mapOrderState(state)).toBe(outcome);
  });
});

describe('gatewaytwo webhooks are signed with HMAC-SHA256 over v1.{timestamp}.{raw body}', () => {
  it('accepts what the gateway signed', () => {
    expect(verifyWebhookSignature(signed())).toEqual({ valid: true });
    expect(verifyWebhookSignature(signed({ rawBody: Buffer.from(BODY) }))).toEqual({ valid: true });
  });

  it('computes the signature the documented way', () => {
    const expected = createHmac('sha256', SECRET).update(`v1.${NOW}.${BODY}`).digest('hex');
    expect(signWebhook({ rawBody: BODY, timestamp: String(NOW), secret: SECRET })).toBe(`v1=${expected}`);
  });

  it('refuses a changed body, another timestamp or another secret', () => {
    expect(verifyWebhookSignature(signed({ rawBody: BODY.replace('ord-1', 'ord-2') }))).toEqual({
      valid: false,
      reason: 'mismatch',
    });
    expect(verifyWebhookSignature(signed({ rawBody: `${BODY} ` }))).toMatchObject({ reason: 'mismatch' });
    expect(verifyWebhookSignature(signed({ timestampHeader: String(NOW + 1) }))).toMatchObject({
      reason: 'mismatch',
    });
    expect(verifyWebhookSignature(signed({ secret: OLD_SECRET }))).toMatchObject({ reason: 'mismatch' });
  });

  it('accepts one matching value among several during a secret rotation, separated by commas or spaces', () => {
    const timestamp = String(NOW);
    const current = signWebhook({ rawBody: BODY, timestamp, secret: SECRET });
    const previous = signWebhook({ rawBody: BODY, timestamp, secret: OLD_SECRET });
    for (const header of [`${previous},${current}`, `${current}, ${previous}`, `${previous} ${current}`]) {
      expect(verifyWebhookSignature(signed({ signatureHeader: header }))).toEqual({ valid: true });
      expect(verifyWebhookSignature(signed({ signatureHeader: header, secret: OLD_SECRET }))).toEqual({
        valid: true,
      });
    }
    const stranger = signWebhook({ rawBody: BODY, timestamp, secret: 'wsk_other' });
    expect(verifyWebhookSignature(signed({ signatureHeader: `${previous},${stranger}` }))).toMatchObject({
      reason: 'mismatch',
    });
  });

  it('accepts a timestamp exactly five minutes away either way, and refuses one millisecond more', () => {
    const at = (offset: number) => {
      const timestamp = String(NOW + offset);
      return verifyWebhookSignature(
        signed({
          timestampHeader: timestamp,
          signatureHeader: signWebhook({ rawBody: BODY, timestamp, secret: SECRET }),
        }),
      );
    };
    expect(at(-SIGNATURE_TOLERANCE_MS)).toEqual({ valid: true });
    expect(at(SIGNATURE_TOLERANCE_MS)).toEqual({ valid: true });
    expect(at(-SIGNATURE_TOLERANCE_MS - 1)).toEqual({ valid: false, reason: 'stale' });
    expect(at(SIGNATURE_TOLERANCE_MS + 1)).toEqual({ valid: false, reason: 'stale' });
    expect(verifyWebhookSignature(signed({ now: new Date(NOW + 60_000) }))).toEqual({ valid: true });
  });

  it.each([
    ['no signature', { signatureHeader: undefined }, 'missing'],
    ['no timestamp', { timestampHeader: undefined }, 'missing'],
    ['an empty signature', { signatureHeader: '' }, 'missing'],
    ['a timestamp in words', { timestampHeader: 'yesterday' }, 'malformed'],
    ['a negative timestamp', { timestampHeader: '-1' }, 'malformed'],
    ['another scheme', { signatureHeader: `v0=${'ab'.repeat(32)}` }, 'malformed'],
    ['a short signature', { signatureHeader: 'v1=abcd' }, 'malformed'],
    ['a non-hex signature', { signatureHeader: `v1=${'zz'.repeat(32)}` }, 'malformed'],
  ])('refuses %s', (_what, overrides, reason) => {
    expect(verifyWebhookSignature(signed(overrides))).toEqual({ valid: false, reason });
  });
});

describe('gatewaytwo webhook bodies', () => {
  it('name an event and an order, and are deduplicated on both', () => {
    const event = parseWebhookEvent(JSON.parse(BODY));
    expect(event).toEqual({ event: 'ORDER_COMPLETED', order_id: 'ord-1', merchant_order_ext_ref: 'order-1' });
    expect(webhookEventKey(event!)).toBe('ord-1:ORDER_COMPLETED');
  });

  it.each([
    [null],
    [[]],
    ['text'],
    [{ event: 'ORDER_COMPLETED' }],
    [{ order_id: 'x' }],
    [{ event: '', order_id: 'x' }],
  ])('refuses %j', (body) => {
    expect(parseWebhookEvent(body)).toBeUndefined();
  });
});
