import { createHmac, hkdfSync } from 'node:crypto';
import { sameBytes } from '#app/common/crypto/constant-time.js';

/** One segment of a wheel: its id, the bonus entry credits it wins, and its relative weight. */
export interface SpinSegment {
  id: number;
  credits: number;
  weight: number;
}

export interface Wheel {
  segments: readonly SpinSegment[];
}

/** The wheel of a site that sets none (or an invalid one): mostly small wins, sometimes nothing. */
export const DEFAULT_WHEEL: Wheel = {
  segments: [
    { id: 1, credits: 0, weight: 30 },
    { id: 2, credits: 1, weight: 35 },
    { id: 3, credits: 2, weight: 20 },
    { id: 4, credits: 5, weight: 10 },
    { id: 5, credits: 10, weight: 5 },
  ],
};

/** Bounds a configured wheel must keep: a wheel is a handful of segments, each a modest win. */
export const MAX_SEGMENTS = 50;
export const MAX_SEGMENT_CREDITS = 1000;
/** A segment id is stored with each claim in an `integer` column: it must fit one. */
export const SEGMENT_ID_RANGE = { min: -2_147_483_648, max: 2_147_483_647 } as const;

function isSegmentId(id: unknown): id is number {
  return (
    Number.isInteger(id) && (id as number) >= SEGMENT_ID_RANGE.min && (id as number) <= SEGMENT_ID_RANGE.max
  );
}

/** A spin token lives 24 hours (DESIGN §6). */
export const SPIN_TOKEN_TTL_SECONDS = 24 * 60 * 60;

export type WheelParse = { wheel: Wheel; problems: [] } | { wheel: null; problems: string[] };

/**
 * The wheel in `additional_settings.spin` (`{segments: [{id, credits, weight}]}`), checked: 1 to 50
 * segments, ids unique integers a claim's column can hold, credits integers 0–1000, weights finite numbers
 * above 0 whose sum is finite too (an infinite total lands every spin on the last segment). Absent:
 * the default wheel. Present but invalid: no wheel, and what is wrong with it.
 */
export function parseWheel(siteSettings: Record<string, unknown> | null | undefined): WheelParse {
  const spin = siteSettings?.spin;
  if (spin === undefined || spin === null) return { wheel: DEFAULT_WHEEL, problems: [] };
  if (typeof spin !== 'object' || Array.isArray(spin)) return invalid('spin must be an object');
  const list = (spin as Record<string, unknown>).segments;
  if (!Array.isArray(list) || list.length === 0) return invalid('spin.segments must be a non-empty array');
  if (list.length > MAX_SEGMENTS) return invalid(`spin.segments may have at most ${MAX_SEGMENTS} segments`);
  const problems: string[] = [];
  const ids = new Set<number>();
  list.forEach((raw: unknown, i) => {
    const at = `spin.segments[${i}]`;
    if (typeof raw !== 'object' || raw === null) {
      problems.push(`${at} must be an object`);
      return;
    }
    const s = raw as Record<string, unknown>;
    if (!isSegmentId(s.id))
      problems.push(`${at}.id must be an integer from ${SEGMENT_ID_RANGE.min} to ${SEGMENT_ID_RANGE.max}`);
    else if (ids.has(s.id)) problems.push(`${at}.id ${String(s.id)} is repeated`);
    else ids.add(s.id);
    if (
      !Number.isInteger(s.credits) ||
      (s.credits as number) < 0 ||
      (s.credits as number) > MAX_SEGMENT_CREDITS
    )
      problems.push(`${at}.credits must be an integer from 0 to ${MAX_SEGMENT_CREDITS}`);
    if (typeof s.weight !== 'number' || !Number.isFinite(s.weight) || s.weight <= 0)
      problems.push(`${at}.weight must be a number above 0`);
  });
  if (
    !problems.length &&
    !Number.isFinite(list.reduce((sum: number, s: { weight: number }) => sum + s.weight, 0))
  )
    problems.push('spin.segments weights must add up to a finite number');
  if (problems.length) return { wheel: null, problems };
  const segments = (list as Array<Record<string, number>>).map((s) => ({
    id: s.id,
    credits: s.credits,
    weight: s.weight,
  }));
  return { wheel: { segments }, problems: [] };
}

function invalid(problem: string): WheelParse {
  return { wheel: null, problems: [problem] };
}

/**
 * The segment a uniform random `u` in [0, 1) lands on: each segment owns a share of [0, 1) in
 * proportion to its weight, in the wheel's order.
 */
export function pickSegment(wheel: Wheel, u: number): SpinSegment {
  if (!(u >= 0 && u < 1)) throw new RangeError(`u must be in [0, 1), got ${u}`);
  const total = wheel.segments.reduce((sum, s) => sum + s.weight, 0);
  let point = u * total;
  for (const segment of wheel.segments) {
    if (point < segment.weight) return segment;
    point -= segment.weight;
  }
  // Floating-point sums can leave `point` a hair past the last boundary: it belongs to the last segment.
  return wheel.segments[wheel.segments.length - 1];
}

/** What a spin token carries (signed, not encrypted: the client may read it). `exp` in epoch seconds. */
export interface SpinTokenPayload {
  v: 1;
  site: string;
  seg: number;
  credits: number;
  jti: string;
  exp: number;
}

/**
 * The key spin tokens are signed with: its own, derived from the service's secrets key (HKDF-SHA256,
 * its own `info`), so it is neither the JWT secret nor the key that encrypts secrets at rest.
 */
export function spinTokenKey(secretsKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', secretsKey, Buffer.alloc(0), 'spin-token-v1', 32));
}

/** `base64url(JSON payload).base64url(HMAC-SHA256(key, first part))`. */
export function signSpinToken(payload: SpinTokenPayload, key: Buffer): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${mac(body, key).toString('base64url')}`;
}

export type SpinTokenCheck =
  { ok: true; payload: SpinTokenPayload } | { ok: false; reason: 'invalid' | 'expired' };

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MAX_TOKEN_LENGTH = 4000;

/**
 * Checks a spin token: the signature first (constant-time), then the payload's shape, then the expiry
 * (`exp` at or before `now` has expired). Anything not signed by `key` is `invalid`, whatever it says.
 */
export function verifySpinToken(token: string, key: Buffer, now: Date): SpinTokenCheck {
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) return { ok: false, reason: 'invalid' };
  const parts = token.split('.');
  if (parts.length !== 2 || !BASE64URL.test(parts[0]) || !BASE64URL.test(parts[1]))
    return { ok: false, reason: 'invalid' };
  const given = Buffer.from(parts[1], 'base64url');
  const expected = mac(parts[0], key);
  if (!sameBytes(given, expected)) return { ok: false, reason: 'invalid' };
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (!isPayload(payload)) return { ok: false, reason: 'invalid' };
  if (payload.exp * 1000 <= now.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, payload };
}

function mac(body: string, key: Buffer): Buffer {
  return createHmac('sha256', key).update(body).digest();
}

function isPayload(p: unknown): p is SpinTokenPayload {
  if (typeof p !== 'object' || p === null) return false;
  const o = p as Record<string, unknown>;
  return (
    o.v === 1 &&
    typeof o.site === 'string' &&
    o.site.length > 0 &&
    isSegmentId(o.seg) &&
    Number.isInteger(o.credits) &&
    (o.credits as number) >= 0 &&
    typeof o.jti === 'string' &&
    UUID.test(o.jti) &&
    Number.isSafeInteger(o.exp)
  );
}
