import { RATE_LIMITS, rateLimitKey, type RateRule, SITE_LIMIT_MAX, siteLimit } from './rate-limit.rules.js';

const byIp: RateRule = { name: 'login-ip', limit: 10, ttlSeconds: 60, by: 'ip' };
const byEmail: RateRule = { name: 'login-email', limit: 10, ttlSeconds: 60, by: 'email' };

describe('rateLimitKey', () => {
  it('keys IP rules on the client address alone, whatever site is named', () => {
    expect(rateLimitKey(byIp, { ip: '203.0.113.7', body: { email: 'a@b.c' } })).toBe(
      'login-ip:ip:203.0.113.7',
    );
    expect(rateLimitKey(byIp, { ip: '203.0.113.7', body: { site_id: 'site-a' } })).toBe(
      'login-ip:ip:203.0.113.7',
    );
    expect(rateLimitKey(byIp, { ip: undefined, body: undefined })).toBe('login-ip:ip:unknown');
  });

  it('counts a limit a site sets apart from the default, under the same key for every site at that limit', () => {
    const at = (limit: number, site: string) =>
      rateLimitKey(byIp, { ip: '203.0.113.7', body: { site_id: site } }, limit);
    expect(at(10, 'a')).toBe('login-ip:ip:203.0.113.7');
    expect(at(25, 'a')).toBe('login-ip@25:ip:203.0.113.7');
    expect(at(25, 'b')).toBe(at(25, 'a'));
    expect(rateLimitKey(byEmail, { ip: undefined, body: { email: 'x@y.z' }, site: 'a' }, 3)).toBe(
      'login-email@3:email:a:x@y.z',
    );
  });

  it('keys e-mail rules on the site and the lowercased, trimmed address', () => {
    expect(
      rateLimitKey(byEmail, { ip: '1.1.1.1', body: { email: ' Jane@Example.COM ' }, site: 'site-a' }),
    ).toBe('login-email:email:site-a:jane@example.com');
    expect(rateLimitKey(byEmail, { ip: '1.1.1.1', body: { email: 'jane@example.com' } })).toBe(
      'login-email:email::jane@example.com',
    );
  });

  it('gives the same address on two sites two counters', () => {
    const a = rateLimitKey(byEmail, { ip: undefined, body: { email: 'x@y.z' }, site: 'a' });
    const b = rateLimitKey(byEmail, { ip: undefined, body: { email: 'x@y.z' }, site: 'b' });
    expect(a).not.toBe(b);
  });

  it.each([
    undefined,
    null,
    'text',
    {},
    { email: '' },
    { email: '   ' },
    { email: 42 },
    { email: `${'a'.repeat(260)}@b.c` },
  ])('skips e-mail rules without a usable e-mail (%p)', (body) => {
    expect(rateLimitKey(byEmail, { ip: '1.1.1.1', body })).toBeUndefined();
  });

  it('keys e-mail rules on the site the request names, not on the body’s site_id', () => {
    expect(rateLimitKey(byEmail, { ip: undefined, body: { email: 'x@y.z', site_id: { $ne: 1 } } })).toBe(
      'login-email:email::x@y.z',
    );
    expect(rateLimitKey(byEmail, { ip: undefined, body: { email: 'x@y.z', site_id: 'b' }, site: 'a' })).toBe(
      'login-email:email:a:x@y.z',
    );
  });
});

describe('RATE_LIMITS', () => {
  it('holds the DESIGN §9 defaults', () => {
    const summary = (rules: readonly RateRule[]) =>
      rules.map((r) => `${r.limit}/${r.ttlSeconds}s by ${r.by}`);
    expect(summary(RATE_LIMITS.login)).toEqual(['10/60s by ip', '10/60s by email']);
    expect(summary(RATE_LIMITS.register)).toEqual(['5/60s by ip']);
    expect(summary(RATE_LIMITS.passwordReset)).toEqual(['5/3600s by email', '20/3600s by ip']);
    expect(summary(RATE_LIMITS.magicLink)).toEqual(['5/3600s by email', '20/3600s by ip']);
    // Endpoint 1 (not in §9): login's per-IP figure, as it costs a login's one hash at most.
    expect(summary(RATE_LIMITS.passwordSetConfirm)).toEqual(['10/60s by ip']);
    // Exchanging a sign-in link (not in §9): a login, at login's per-IP figure.
    expect(summary(RATE_LIMITS.magicLinkVerify)).toEqual(['10/60s by ip']);
  });

  it('names every counter uniquely', () => {
    const names = Object.values(RATE_LIMITS).flatMap((rules) => rules.map((r) => r.name));
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('siteLimit (DESIGN §9: defaults, per site configurable)', () => {
  it('takes the site’s whole number for the rule, by the rule’s name', () => {
    expect(siteLimit(byIp, { rate_limits: { 'login-ip': 25 } })).toBe(25);
    expect(siteLimit(byIp, { rate_limits: { 'login-ip': 1 } })).toBe(1);
    expect(siteLimit(byIp, { rate_limits: { 'login-ip': SITE_LIMIT_MAX } })).toBe(SITE_LIMIT_MAX);
    expect(siteLimit(byEmail, { rate_limits: { 'login-ip': 25 } })).toBe(10);
  });

  it('keeps the default for no settings, no override, or one that is not a whole number in range', () => {
    for (const settings of [null, undefined, {}, { rate_limits: null }, { rate_limits: [5] }])
      expect(siteLimit(byIp, settings as Record<string, unknown> | null)).toBe(10);
    for (const bad of [0, -3, 2.5, '25', SITE_LIMIT_MAX + 1, null, true])
      expect(siteLimit(byIp, { rate_limits: { 'login-ip': bad } })).toBe(10);
  });
});
