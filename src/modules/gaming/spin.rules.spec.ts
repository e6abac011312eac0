import { randomUUID } from 'node:crypto';
import {
  DEFAULT_WHEEL,
  parseWheel,
  pickSegment,
  signSpinToken,
  type SpinTokenPayload,
  spinTokenKey,
  verifySpinToken,
  type Wheel,
} from './spin.rules.js';

describe('a site’s wheel', () => {
  it('is the default wheel when the site sets none', () => {
    expect(parseWheel({})).toEqual({ wheel: DEFAULT_WHEEL, problems: [] });
    expect(parseWheel(null)).toEqual({ wheel: DEFAULT_WHEEL, problems: [] });
  });

  it('is the site’s own when every segment is valid', () => {
    const spin = { segments: [{ id: 7, credits: 3, weight: 1.5 }] };
    expect(parseWheel({ spin })).toEqual({ wheel: spin, problems: [] });
  });

  it('is refused, naming what is wrong, for bad weights, credits, ids or shape', () => {
    const bad = parseWheel({
      spin: {
        segments: [
          { id: 1, credits: 1, weight: 0 },
          { id: 1, credits: -1, weight: 2 },
          { id: 2.5, credits: 1.5, weight: Number.NaN },
          'x',
        ],
      },
    });
    expect(bad.wheel).toBeNull();
    expect(bad.problems).toEqual([
      'spin.segments[0].weight must be a number above 0',
      'spin.segments[1].id 1 is repeated',
      'spin.segments[1].credits must be an integer from 0 to 1000',
      'spin.segments[2].id must be an integer from -2147483648 to 2147483647',
      'spin.segments[2].credits must be an integer from 0 to 1000',
      'spin.segments[2].weight must be a number above 0',
      'spin.segments[3] must be an object',
    ]);
    expect(parseWheel({ spin: { segments: [] } }).problems).toEqual([
      'spin.segments must be a non-empty array',
    ]);
    expect(parseWheel({ spin: 'big' }).problems).toEqual(['spin must be an object']);
  });

  it('is refused when a claim could not store a segment id, or the weights add up past any number', () => {
    expect(parseWheel({ spin: { segments: [{ id: 2 ** 31, credits: 1, weight: 1 }] } }).problems).toEqual([
      'spin.segments[0].id must be an integer from -2147483648 to 2147483647',
    ]);
    expect(
      parseWheel({ spin: { segments: [{ id: 2 ** 31 - 1, credits: 1, weight: 1 }] } }).wheel,
    ).not.toBeNull();
    const huge = [
      { id: 1, credits: 10, weight: 1e308 },
      { id: 2, credits: 0, weight: 1e308 },
    ];
    expect(parseWheel({ spin: { segments: huge } }).problems).toEqual([
      'spin.segments weights must add up to a finite number',
    ]);
  });
});

describe('a weighted pick', () => {
  const wheel: Wheel = {
    segments: [
      { id: 1, credits: 0, weight: 1 },
      { id: 2, credits: 5, weight: 3 },
    ],
  };

  it('gives each segment a share of [0, 1) in proportion to its weight', () => {
    expect(pickSegment(wheel, 0).id).toBe(1);
    expect(pickSegment(wheel, 0.2499).id).toBe(1);
    expect(pickSegment(wheel, 0.25).id).toBe(2);
    expect(pickSegment(wheel, 0.999999).id).toBe(2);
  });

  it('lands on the default wheel’s segments about as often as their weights say', () => {
    const counts = new Map<number, number>();
    const n = 10_000;
    for (let i = 0; i < n; i++) {
      const id = pickSegment(DEFAULT_WHEEL, (i + 0.5) / n).id;
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    expect(Object.fromEntries(counts)).toEqual({ 1: 3000, 2: 3500, 3: 2000, 4: 1000, 5: 500 });
  });

  it('refuses a number outside [0, 1)', () => {
    expect(() => pickSegment(wheel, 1)).toThrow(RangeError);
    expect(() => pickSegment(wheel, -0.1)).toThrow(RangeError);
  });
});

describe('spin tokens', () => {
  const key = spinTokenKey(Buffer.alloc(32, 7));
  const now = new Date('2026-06-01T12:00:00Z');
  const payload = (over: Partial<SpinTokenPayload> = {}): SpinTokenPayload => ({
    v: 1,
    site: 'main',
    seg: 4,
    credits: 5,
    jti: randomUUID(),
    exp: now.getTime() / 1000 + 3600,
    ...over,
  });

  it('are signed with a key of their own, derived from the secrets key', () => {
    expect(key.length).toBe(32);
    expect(key.equals(Buffer.alloc(32, 7))).toBe(false);
    expect(spinTokenKey(Buffer.alloc(32, 8)).equals(key)).toBe(false);
  });

  it('verify and answer what they carry', () => {
    const p = payload();
    expect(verifySpinToken(signSpinToken(p, key), key, now)).toEqual({ ok: true, payload: p });
  });

  it('are invalid when the payload or the signature is changed, or another key signed them', () => {
    const token = signSpinToken(payload(), key);
    const [body, sig] = token.split('.');
    const richer = Buffer.from(
      JSON.stringify({ ...(JSON.parse(Buffer.from(body, 'base64url').toString()) as object), credits: 1000 }),
    ).toString('base64url');
    const flipped = `${sig.slice(0, -2)}${sig.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const bad of [
      `${richer}.${sig}`,
      `${body}.${flipped}`,
      `${body}.${sig}.x`,
      body,
      'garbage',
      '',
      signSpinToken(payload(), spinTokenKey(Buffer.alloc(32, 8))),
    ])
      expect(verifySpinToken(bad, key, now)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('are invalid when correctly signed but not shaped like a spin token', () => {
    const odd = signSpinToken({ ...payload(), v: 2 } as unknown as SpinTokenPayload, key);
    expect(verifySpinToken(odd, key, now)).toEqual({ ok: false, reason: 'invalid' });
    const wide = signSpinToken({ ...payload(), seg: 2 ** 40 }, key);
    expect(verifySpinToken(wide, key, now)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('expire at their exp', () => {
    const exp = now.getTime() / 1000;
    expect(verifySpinToken(signSpinToken(payload({ exp }), key), key, now)).toEqual({
      ok: false,
      reason: 'expired',
    });
    expect(verifySpinToken(signSpinToken(payload({ exp: exp + 1 }), key), key, now).ok).toBe(true);
  });
});
