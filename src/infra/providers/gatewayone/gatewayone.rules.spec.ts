import { createCipheriv, randomBytes } from 'node:crypto';
import {
  classifyResultCode,
  decryptWebhook,
  encryptWebhook,
  GatewayOneWebhookError,
  parseWebhookEvent,
  webhookEventKey,
} from './gatewayone.rules.js';
import type { EncryptedWebhook } from './gatewayone.types.js';

const KEY = 'a1'.repeat(32);
const OTHER_KEY = 'b2'.repeat(32);

const event = {
  type: 'PAYMENT',
  payload: {
    id: '8ac7a4a1845f7e2b01845f9c3d7a1234',
    ndc: 'CHK-1',
    result: { code: '000.100.110', description: 'Request successfully processed' },
    amount: '12.10',
    currency: 'GBP',
    merchantTransactionId: 'order-1',
    customParameters: { SITE_ID: 'main' },
    timestamp: '2026-11-22 10:00:00+0000',
  },
};

/** Flips the lowest bit of the first byte of a hex string. */
const flip = (hex: string): string =>
  (parseInt(hex.slice(0, 2), 16) ^ 1).toString(16).padStart(2, '0') + hex.slice(2);

const rejection = (webhook: EncryptedWebhook, key = KEY): unknown => {
  try {
    decryptWebhook(webhook, key);
  } catch (error) {
    return error;
  }
  throw new Error('expected the webhook to be refused');
};

describe('gatewayone result codes map to our outcomes by the gateway’s own patterns', () => {
  it.each([
    '000.000.000',
    '000.000.100',
    '000.100.110',
    '000.100.112',
    '000.100.199',
    '000.300.000',
    '000.310.100',
    '000.600.000',
    '000.400.110',
    '000.400.120',
  ])('%s is a success', (code) => {
    expect(classifyResultCode(code)).toBe('succeeded');
  });

  it.each(['000.400.000', '000.400.010', '000.400.020', '000.400.040', '000.400.090', '000.400.100'])(
    '%s goes to manual review',
    (code) => {
      expect(classifyResultCode(code)).toBe('review');
    },
  );

  it.each(['000.200.000', '000.200.100', '000.200.201'])('%s is still pending', (code) => {
    expect(classifyResultCode(code)).toBe('pending');
  });

  it.each([
    '800.100.151',
    '800.100.100',
    '100.396.101',
    '200.300.404',
    '700.400.580',
    '000.400.030',
    '000.400.101',
    '000.400.130',
    '000.100.200',
    '000.500.000',
    ' 000.000.000',
    '',
    'garbage',
  ])('%j is a failure', (code) => {
    expect(classifyResultCode(code)).toBe('failed');
  });
});

describe('gatewayone webhooks are AES-256-GCM encrypted and authenticated', () => {
  it('opens what the gateway sealed, with a fresh IV each time', () => {
    const first = encryptWebhook(event, KEY);
    const second = encryptWebhook(event, KEY);
    expect(first.ivHex).not.toBe(second.ivHex);
    expect(first.tagHex).toHaveLength(32);
    expect(decryptWebhook(first, KEY)).toEqual(event);
    expect(decryptWebhook(second, KEY.toUpperCase())).toEqual(event);
  });

  it.each([
    ['body', (w: EncryptedWebhook) => ({ ...w, encryptedBody: flip(w.encryptedBody) })],
    ['IV', (w: EncryptedWebhook) => ({ ...w, ivHex: flip(w.ivHex) })],
    ['tag', (w: EncryptedWebhook) => ({ ...w, tagHex: flip(w.tagHex) })],
    ['body (truncated)', (w: EncryptedWebhook) => ({ ...w, encryptedBody: w.encryptedBody.slice(0, -2) })],
    ['body (extended)', (w: EncryptedWebhook) => ({ ...w, encryptedBody: `${w.encryptedBody}00` })],
    ['IV (another valid one)', (w: EncryptedWebhook) => ({ ...w, ivHex: randomBytes(12).toString('hex') })],
  ])('refuses a webhook whose %s was changed', (_what, tamper) => {
    const error = rejection(tamper(encryptWebhook(event, KEY)));
    expect(error).toBeInstanceOf(GatewayOneWebhookError);
    expect(error).toMatchObject({ reason: 'unauthentic' });
  });

  it('refuses a webhook sealed with another key', () => {
    expect(rejection(encryptWebhook(event, OTHER_KEY))).toMatchObject({ reason: 'unauthentic' });
  });

  it('refuses a truncated authentication tag instead of checking fewer bytes', () => {
    const sealed = encryptWebhook(event, KEY);
    expect(rejection({ ...sealed, tagHex: sealed.tagHex.slice(0, 16) })).toMatchObject({
      reason: 'malformed',
    });
  });

  it.each([
    ['a non-hex body', { encryptedBody: 'zz' }],
    ['an odd-length body', { encryptedBody: 'abc' }],
    ['an empty body', { encryptedBody: '' }],
    ['an empty IV', { ivHex: '' }],
    ['a non-hex tag', { tagHex: 'g'.repeat(32) }],
    ['a missing tag', { tagHex: undefined as unknown as string }],
  ])('refuses %s as malformed', (_what, change) => {
    expect(rejection({ ...encryptWebhook(event, KEY), ...change })).toMatchObject({ reason: 'malformed' });
  });

  it('refuses an authentic plaintext that is not a JSON object', () => {
    const seal = (text: string): EncryptedWebhook => {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', Buffer.from(KEY, 'hex'), iv);
      const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
      return {
        encryptedBody: body.toString('hex'),
        ivHex: iv.toString('hex'),
        tagHex: cipher.getAuthTag().toString('hex'),
      };
    };
    expect(rejection(seal('not json'))).toMatchObject({ reason: 'not-an-event' });
    expect(rejection(seal('[1,2]'))).toMatchObject({ reason: 'not-an-event' });
    expect(rejection(seal('null'))).toMatchObject({ reason: 'not-an-event' });
  });

  it('will not work with a key that is not 32 bytes of hex', () => {
    expect(() => decryptWebhook(encryptWebhook(event, KEY), 'abc')).toThrow(/64 hexadecimal/);
    expect(() => encryptWebhook(event, 'zz'.repeat(32))).toThrow(/64 hexadecimal/);
  });
});

describe('gatewayone webhook events', () => {
  it('are deduplicated on the payment id and the result code', () => {
    const parsed = parseWebhookEvent(decryptWebhook(encryptWebhook(event, KEY), KEY));
    expect(webhookEventKey(parsed)).toBe('8ac7a4a1845f7e2b01845f9c3d7a1234:000.100.110');
    const refundedLater = { ...event, payload: { ...event.payload, result: { code: '000.100.112' } } };
    expect(webhookEventKey(parseWebhookEvent(refundedLater))).not.toBe(webhookEventKey(parsed));
  });

  it.each([
    ['an unknown type', { ...event, type: 'PAYOUT' }],
    ['no payload', { type: 'PAYMENT' }],
    ['no payload id', { ...event, payload: { ...event.payload, id: '' } }],
    ['no result code', { ...event, payload: { ...event.payload, result: {} } }],
  ])('refuse %s as not an event', (_what, plaintext) => {
    expect(() => parseWebhookEvent(plaintext)).toThrow(GatewayOneWebhookError);
  });
});
