/**
 * Rules of referrals (DESIGN §5, §6) as plain functions: codes, the self-referral tests, the flags.
 */
import { normalizedEmail } from '#app/common/email-address.js';
import { clientNetwork } from '#app/common/net/client-network.js';
import type { ReferralStatus } from './entities/referral.entity.js';

/** Letters and digits that cannot be mistaken for each other when read aloud or copied (no O/0, I/1/L, U/V). */
export const REFERRAL_ALPHABET = 'ABCDEFGHJKMNPQRSTWXYZ23456789';
/** 8 characters of 29: 29^8 ≈ 5 × 10^11 codes — unguessable at any rate limit, short enough to read out. */
export const REFERRAL_CODE_LENGTH = 8;

/** A code from `REFERRAL_CODE_LENGTH` draws of `randomIndex(n)` (crypto `randomInt` in production). */
export function referralCode(randomIndex: (n: number) => number): string {
  let code = '';
  for (let i = 0; i < REFERRAL_CODE_LENGTH; i++)
    code += REFERRAL_ALPHABET[randomIndex(REFERRAL_ALPHABET.length)];
  return code;
}

/** A code as typed by a person: case and spaces or dashes ignored. */
export function normaliseReferralCode(input: string): string {
  return input.replace(/[\s-]+/g, '').toUpperCase();
}

/** Providers that deliver `name+tag@` to `name@` (sub-addressing), and those that also ignore dots. */
const PLUS_TAG_DOMAINS = new Set([
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'hotmail.co.uk',
  'live.com',
  'live.co.uk',
  'icloud.com',
  'me.com',
  'fastmail.com',
  'proton.me',
  'protonmail.com',
]);
const DOTLESS_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

/**
 * The mailbox an address reaches: lower case; `+tags` dropped where the provider ignores them; dots in
 * the local part dropped at Gmail; googlemail.com is gmail.com.
 */
export function mailboxOf(address: string): string {
  const email = normalizedEmail(address);
  const at = email.lastIndexOf('@');
  if (at < 0) return email;
  let local = email.slice(0, at).trim();
  let domain = email.slice(at + 1).trim();
  if (domain === 'googlemail.com') domain = 'gmail.com';
  if (PLUS_TAG_DOMAINS.has(domain)) local = local.split('+')[0];
  if (DOTLESS_DOMAINS.has(domain)) local = local.replace(/\./g, '');
  return `${local}@${domain}`;
}

/** A signup from the referrer's own registration IP this soon after it is taken for the same person. */
export const SAME_IP_WINDOW_MS = 24 * 60 * 60 * 1000;

export type SelfReferral = 'same_account' | 'same_email' | 'same_ip';

/**
 * Why a signup with a code is the referrer referring itself, or null. "The same IP" is the same client network, as
 * the per-IP limits count it (`clientNetwork`): an IPv6 line holds a whole /64 and picks a new address in it at will.
 */
export function selfReferral(
  referrer: { id: string; email: string; registeredAt: Date; registrationIp: string | null },
  referee: { id: string; email: string; ip: string | null; at: Date },
): SelfReferral | null {
  if (referrer.id === referee.id) return 'same_account';
  if (mailboxOf(referrer.email) === mailboxOf(referee.email)) return 'same_email';
  if (
    referee.ip &&
    referrer.registrationIp &&
    clientNetwork(referrer.registrationIp) === clientNetwork(referee.ip) &&
    referee.at.getTime() - referrer.registeredAt.getTime() < SAME_IP_WINDOW_MS
  )
    return 'same_ip';
  return null;
}

export function referralFlags(status: ReferralStatus): { is_cancelled: boolean; is_completed: boolean } {
  return { is_cancelled: status === 'cancelled', is_completed: status === 'completed' };
}
