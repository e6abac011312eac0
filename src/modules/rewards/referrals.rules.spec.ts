import {
  mailboxOf,
  normaliseReferralCode,
  REFERRAL_ALPHABET,
  referralCode,
  referralFlags,
  selfReferral,
} from './referrals.rules.js';

describe('referral codes', () => {
  it('are 8 characters of an alphabet without look-alikes', () => {
    let i = 0;
    const code = referralCode((n) => i++ % n);
    expect(code).toHaveLength(8);
    expect([...code].every((c) => REFERRAL_ALPHABET.includes(c))).toBe(true);
    expect(REFERRAL_ALPHABET).not.toMatch(/[O0I1LUV]/);
  });

  it('are read as typed: case, spaces and dashes ignored', () => {
    expect(normaliseReferralCode(' abcd-2345 ')).toBe('ABCD2345');
  });
});

describe('mailboxOf', () => {
  it.each([
    ['John.Smith+raffle@gmail.com', 'johnsmith@gmail.com'],
    ['j.o.h.n@googlemail.com', 'john@gmail.com'],
    ['Ann+x@outlook.com', 'ann@outlook.com'],
    ['ann.lee+x@example.com', 'ann.lee+x@example.com'],
    ['a.b@hotmail.co.uk', 'a.b@hotmail.co.uk'],
  ])('%s reaches %s', (email, mailbox) => expect(mailboxOf(email)).toBe(mailbox));
});

describe('selfReferral', () => {
  const now = new Date('2026-06-01T12:00:00Z');
  const referrer = {
    id: 'r',
    email: 'ann.lee@gmail.com',
    registeredAt: new Date('2026-06-01T09:00:00Z'),
    registrationIp: '198.51.100.7',
  };
  const referee = { id: 'e', email: 'bob@example.com', ip: '203.0.113.9', at: now };

  it('accepts another person', () => expect(selfReferral(referrer, referee)).toBeNull());
  it('refuses the same account', () =>
    expect(selfReferral(referrer, { ...referee, id: 'r' })).toBe('same_account'));
  it('refuses the same mailbox written another way', () =>
    expect(selfReferral(referrer, { ...referee, email: 'AnnLee+2@googlemail.com' })).toBe('same_email'));
  it('refuses the referrer’s registration IP within 24 hours', () =>
    expect(selfReferral(referrer, { ...referee, ip: '198.51.100.7' })).toBe('same_ip'));
  it('refuses another address of the referrer’s IPv6 /64, and the IPv4-mapped form of its IPv4', () => {
    const v6 = { ...referrer, registrationIp: '2001:db8:5:7::1' };
    expect(selfReferral(v6, { ...referee, ip: '2001:db8:5:7:abcd:ef01:2345:6789' })).toBe('same_ip');
    expect(selfReferral(v6, { ...referee, ip: '2001:db8:5:8::1' })).toBeNull();
    expect(selfReferral(referrer, { ...referee, ip: '::ffff:198.51.100.7' })).toBe('same_ip');
  });
  it('compares no address when the referrer has none recorded', () =>
    expect(
      selfReferral({ ...referrer, registrationIp: null }, { ...referee, ip: '198.51.100.7' }),
    ).toBeNull());
  it('accepts the same IP after 24 hours (a household)', () =>
    expect(
      selfReferral(referrer, { ...referee, ip: '198.51.100.7', at: new Date('2026-06-02T10:00:00Z') }),
    ).toBeNull());
});

describe('referralFlags', () => {
  it('derives the flags from the status', () => {
    expect(referralFlags('pending')).toEqual({ is_cancelled: false, is_completed: false });
    expect(referralFlags('completed')).toEqual({ is_cancelled: false, is_completed: true });
    expect(referralFlags('cancelled')).toEqual({ is_cancelled: true, is_completed: false });
  });
});
