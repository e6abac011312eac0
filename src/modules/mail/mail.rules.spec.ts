import type { SiteConfig } from '#app/modules/sites/entities/site-config.entity.js';
import {
  bccFor,
  mailRouteOf,
  mailVariables,
  pickTemplateId,
  receiptOnly,
  recipientName,
  senderOf,
  templateIdValue,
} from './mail.rules.js';
import { MAIL_KINDS } from './mail.types.js';

function site(values: Partial<SiteConfig> = {}): SiteConfig {
  const blank: Record<string, unknown> = {
    site_id: 'shop',
    display_name: 'Shop',
    frontend_url: 'https://shop.example.com',
    email_provider: null,
    email_bcc_for_purchases: null,
    smtp_host: null,
    smtp_from: null,
    smtp_from_name: null,
    smtp_reply_to: null,
    mailer_master_template_id: null,
  };
  for (const kind of MAIL_KINDS) {
    blank[`mailer_${kind}_template_id`] = null;
    blank[`mailer_generic_${kind}_template_id`] = null;
  }
  return { ...blank, ...values } as SiteConfig;
}

describe('which way a site’s mail goes', () => {
  it('follows email_provider, with the default transport when nothing of its own is set', () => {
    expect(mailRouteOf(null)).toBe('default');
    expect(mailRouteOf(site())).toBe('default');
    expect(mailRouteOf(site({ email_provider: 'smtp', smtp_host: 'mx.example.com' }))).toBe('site-smtp');
    expect(mailRouteOf(site({ email_provider: 'smtp' }))).toBe('default');
    expect(mailRouteOf(site({ email_provider: 'mailer' }))).toBe('mailer');
    expect(mailRouteOf(site({ email_provider: 'log' }))).toBe('log');
  });
});

describe('the provider template for a kind', () => {
  const ids = site({
    mailer_master_template_id: '1',
    mailer_generic_magic_link_template_id: '20',
    mailer_magic_link_template_id: '10',
    mailer_generic_password_reset_template_id: '21',
  });

  it('is the site’s specific template first', () => {
    expect(pickTemplateId(ids, 'magic_link')).toBe('10');
  });

  it('else its generic variant', () => {
    expect(pickTemplateId(ids, 'password_reset')).toBe('21');
  });

  it('else the master template, else none', () => {
    expect(pickTemplateId(ids, 'welcome')).toBe('1');
    expect(pickTemplateId(site(), 'welcome')).toBeNull();
  });

  it('is sent as a number when it is one', () => {
    expect(templateIdValue('42')).toBe(42);
    expect(templateIdValue('welcome-v2')).toBe('welcome-v2');
  });
});

describe('purchase BCC', () => {
  const withBcc = site({ email_bcc_for_purchases: 'orders@shop.example.com' });
  it('goes on both purchase kinds only', () => {
    expect(bccFor('purchase_existing', withBcc)).toBe('orders@shop.example.com');
    expect(bccFor('purchase_new', withBcc)).toBe('orders@shop.example.com');
    expect(bccFor('welcome', withBcc)).toBeNull();
    expect(bccFor('purchase_new', site())).toBeNull();
    expect(bccFor('purchase_new', null)).toBeNull();
  });
});

describe('the sender', () => {
  const configured = site({
    smtp_from: 'hello@shop.example.com',
    smtp_from_name: 'Shop Team',
    smtp_reply_to: 'help@shop.example.com',
  });

  it('is the site’s SMTP identity', () => {
    expect(senderOf(configured, {}, 'no-reply@service')).toEqual({
      from: { name: 'Shop Team', address: 'hello@shop.example.com' },
      replyTo: 'help@shop.example.com',
    });
  });

  it('takes name and Reply-To from a raffle’s mailer_email_params, never its address', () => {
    const vars = {
      from_name: 'Mega Draw',
      reply_to_email: 'draw@brand.example',
      from_email: 'spoof@evil.example',
    };
    expect(senderOf(configured, vars, 'no-reply@service')).toEqual({
      from: { name: 'Mega Draw', address: 'hello@shop.example.com' },
      replyTo: 'draw@brand.example',
    });
  });

  it('falls back to the service address and the brand or site name', () => {
    expect(senderOf(site(), {}, 'no-reply@service')).toEqual({
      from: { name: 'Shop', address: 'no-reply@service' },
      replyTo: null,
    });
    expect(senderOf(site(), { brand_name: 'Brand' }, 'no-reply@service').from.name).toBe('Brand');
    expect(senderOf(null, { site_name: 'gone' }, 'no-reply@service').from.name).toBe('gone');
  });

  it('keeps a stored name with line breaks to one line (the input rule’s second line of defence)', () => {
    const planted = site({ display_name: 'Shop\r\nBcc: victim@evil.example' });
    expect(senderOf(planted, {}, 'no-reply@service').from.name).toBe('Shop Bcc: victim@evil.example');
    expect(senderOf(site(), { brand_name: 'A\u2028B\u0000' }, 'x@y').from.name).toBe('A B');
  });

  it('ignores a Reply-To that is not an address', () => {
    expect(senderOf(site(), { reply_to_email: 'not an address' }, 'x@y').replyTo).toBeNull();
  });
});

describe('template variables', () => {
  const now = new Date('2027-03-01T00:00:00Z');

  it('carry the site’s name, address and the year, overridden by the job’s own', () => {
    expect(
      mailVariables(site(), 'shop', { link: 'https://l', brand_name: 'Brand' }, 'https://svc', now),
    ).toEqual({
      site_name: 'Shop',
      frontend_url: 'https://shop.example.com',
      current_year: '2027',
      link: 'https://l',
      brand_name: 'Brand',
      brand_site_url: 'https://shop.example.com',
    });
  });

  it('drop empty values and fall back to the service address for an unknown site', () => {
    const vars = mailVariables(null, 'gone', { first_name: null, last_name: '' }, 'https://svc', now);
    expect(vars).toMatchObject({ site_name: 'gone', frontend_url: 'https://svc', brand_name: 'gone' });
    expect(vars).not.toHaveProperty('first_name');
    expect(vars).not.toHaveProperty('last_name');
  });

  it('name the recipient when the job knows the name', () => {
    expect(recipientName({ first_name: 'Jane', last_name: 'Doe' })).toBe('Jane Doe');
    expect(recipientName({ first_name: 'Jane' })).toBe('Jane');
    expect(recipientName({})).toBeUndefined();
  });
});

describe('a new buyer’s purchase mail as the purchase BCC’s receipt', () => {
  it('leaves out the one-time link and its lifetime, and keeps the order', () => {
    expect(
      receiptOnly({
        giveaway_name: 'Dream Car',
        ticket_ranges: '2001-2002',
        amount: '£5.00',
        link: 'https://shop.example/password-set?token=secret',
        expires_minutes: 60,
      }),
    ).toEqual({ giveaway_name: 'Dream Car', ticket_ranges: '2001-2002', amount: '£5.00' });
  });
});
