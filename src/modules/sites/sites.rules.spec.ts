import {
  maskSecret,
  missingMailSettings,
  SECRET_FIELDS,
  secretChange,
  secretsToResend,
  SITE_ID_PATTERN,
  TEMPLATE_FIELDS,
  siteLinkBase,
  titleFromSiteId,
} from './sites.rules.js';

describe('where links in a site’s e-mails lead', () => {
  const sandbox = { providers: 'sandbox' as const, publicBaseUrl: 'http://localhost:3000' };
  const live = { providers: 'live' as const, publicBaseUrl: 'https://api.example.com' };

  it('to the site’s front end when it has one', () => {
    const site = { frontend_url: 'https://shop.example.com' };
    expect(siteLinkBase(site, 'main', sandbox)).toBe('https://shop.example.com');
    expect(siteLinkBase(site, 'main', live)).toBe('https://shop.example.com');
  });

  it('to the sandbox’s own pages for the site when it has none', () => {
    expect(siteLinkBase({ frontend_url: null }, 'main', sandbox)).toBe(
      'http://localhost:3000/sandbox/sites/main',
    );
    expect(siteLinkBase(null, 'main', sandbox)).toBe('http://localhost:3000/sandbox/sites/main');
  });

  it('to the service itself outside the sandbox', () => {
    expect(siteLinkBase({ frontend_url: null }, 'main', live)).toBe('https://api.example.com');
  });
});

describe('a site made from its id alone', () => {
  it('gets a title made from the id as its display name', () => {
    expect(titleFromSiteId('main')).toBe('Main');
    expect(titleFromSiteId('north-shop_2')).toBe('North Shop 2');
    expect(titleFromSiteId('default')).toBe('Default');
  });
});

describe('site secrets', () => {
  it('are answered as "****" plus the last four characters, or null when unset', () => {
    expect(maskSecret('xkeysib-0123456789abcdef')).toBe('****cdef');
    expect(maskSecret('12345678')).toBe('****5678');
    expect(maskSecret(null)).toBeNull();
  });

  it('show nothing of a secret shorter than eight characters', () => {
    expect(maskSecret('1234567')).toBe('****');
    expect(maskSecret('')).toBe('****');
  });

  it('are kept when an update omits them or sends back the masked value', () => {
    expect(secretChange(undefined, 'old-secret-1234')).toEqual({ kind: 'keep' });
    expect(secretChange('****1234', 'old-secret-1234')).toEqual({ kind: 'keep' });
  });

  it('are cleared by null or an empty string, and replaced by anything else', () => {
    expect(secretChange(null, 'old-secret-1234')).toEqual({ kind: 'clear' });
    expect(secretChange('', 'old-secret-1234')).toEqual({ kind: 'clear' });
    expect(secretChange('new-secret-9999', 'old-secret-1234')).toEqual({
      kind: 'set',
      value: 'new-secret-9999',
    });
    expect(secretChange('****1234', null)).toEqual({ kind: 'set', value: '****1234' });
    expect(secretChange('****9999', 'old-secret-1234')).toEqual({ kind: 'set', value: '****9999' });
  });

  it('the SMTP password is asked for again when its host, port or user name changes, and only then', () => {
    const stored = { smtp_host: 'smtp.example.com', smtp_port: 587, smtp_username: 'shop' };
    const pass = 'old-secret-1234';
    expect(secretsToResend({ smtp_host: 'evil.example' }, stored, pass)).toEqual([
      { field: 'smtp_password', message: 'must be sent again (or null to clear it) when smtp_host changes' },
    ]);
    expect(secretsToResend({ smtp_port: 25, smtp_password: '****1234' }, stored, pass)).toHaveLength(1);
    expect(secretsToResend({ smtp_username: 'other' }, stored, pass)).toHaveLength(1);
    expect(
      secretsToResend({ smtp_host: 'evil.example', smtp_password: 'new-pass-9999' }, stored, pass),
    ).toEqual([]);
    expect(secretsToResend({ smtp_host: 'evil.example', smtp_password: null }, stored, pass)).toEqual([]);
    expect(secretsToResend({ smtp_host: 'smtp.example.com', smtp_port: 587 }, stored, pass)).toEqual([]);
    expect(secretsToResend({ smtp_host: 'evil.example' }, stored, null)).toEqual([]);
    expect(secretsToResend({ smtp_host: null }, stored, pass)).toEqual([]);
    expect(secretsToResend({ smtp_host: 'evil.example' }, { ...stored, smtp_host: null }, pass)).toHaveLength(
      1,
    );
  });

  it('are the four the spec marks as secret', () => {
    expect([...SECRET_FIELDS].sort()).toEqual(
      ['analytics_api_key', 'contactsvc_api_key', 'mailer_api_key', 'smtp_password'].sort(),
    );
  });
});

describe('site settings', () => {
  it('have a specific and a generic template id for each of the eight kinds', () => {
    expect(TEMPLATE_FIELDS).toHaveLength(16);
    expect(TEMPLATE_FIELDS).toContain('mailer_purchase_new_template_id');
    expect(TEMPLATE_FIELDS).toContain('mailer_generic_cms_new_user_template_id');
  });

  it('take a lowercase slug as site_id, 63 characters at most', () => {
    expect(SITE_ID_PATTERN.test('shop-1_a')).toBe(true);
    expect(SITE_ID_PATTERN.test('a'.repeat(63))).toBe(true);
    expect(SITE_ID_PATTERN.test('a'.repeat(64))).toBe(false);
    for (const bad of ['Shop', '-shop', 'shop id', 'shop/1', ''])
      expect(SITE_ID_PATTERN.test(bad)).toBe(false);
  });

  const none = {
    email_provider: null,
    smtp_host: null,
    has_mailer_api_key: false,
    mailer_master_template_id: null,
  };

  it('need an SMTP host for the smtp provider', () => {
    expect(missingMailSettings({ ...none, email_provider: 'smtp' }, true).map((e) => e.field)).toEqual([
      'smtp_host',
    ]);
    expect(missingMailSettings({ ...none, email_provider: 'smtp', smtp_host: 'mx' }, true)).toEqual([]);
  });

  it('need an API key, a master template and a configured provider for the mailer provider', () => {
    expect(missingMailSettings({ ...none, email_provider: 'mailer' }, false).map((e) => e.field)).toEqual([
      'mailer_api_key',
      'mailer_master_template_id',
      'email_provider',
    ]);
    expect(
      missingMailSettings(
        { ...none, email_provider: 'mailer', has_mailer_api_key: true, mailer_master_template_id: '1' },
        true,
      ),
    ).toEqual([]);
  });

  it('need nothing for the log provider or the default transport', () => {
    expect(missingMailSettings({ ...none, email_provider: 'log' }, false)).toEqual([]);
    expect(missingMailSettings(none, false)).toEqual([]);
  });
});
