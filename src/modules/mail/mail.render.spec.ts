import { renderMail } from './mail.render.js';
import { ALL_MAIL_KINDS, type MailKind, type MailVariables } from './mail.types.js';

const SITE = { site_name: 'Shop', frontend_url: 'https://shop.example.com', current_year: '2027' };
const LINK = 'https://shop.example.com/password-set?token=abc123';
const PURCHASE = {
  giveaway_name: 'Dream Car',
  ticket_quantity: 5,
  ticket_ranges: '1001–1005',
  amount: '£12.50',
  order_id: 'ord-42',
  draw_date: '1 March 2027',
};

/** What each kind is given by its sender, and what the reader must find in it. */
const CASES: Record<MailKind, { vars: MailVariables; subject: RegExp; mustSay: string[] }> = {
  magic_link: {
    vars: { link: LINK, expires_minutes: 15 },
    subject: /sign-in link/,
    mustSay: [LINK, '15 minutes'],
  },
  purchase_refunded: {
    vars: { giveaway_name: 'Dream Car', amount: '£12.50', order_id: 'ord-42' },
    subject: /refunded/,
    mustSay: ['Dream Car', '£12.50', 'ord-42'],
  },
  payment_refunded: {
    vars: { giveaway_name: 'Dream Car', amount: '£5.00', order_id: 'ord-43' },
    subject: /We have refunded £5\.00/,
    mustSay: ['Dream Car', '£5.00', 'ord-43'],
  },
  subscription_started: {
    vars: { tier_name: 'Gold', amount: '£9.99', credits: 5, next_billing_date: '1 March 2030' },
    subject: /Your Gold membership has started/,
    mustSay: ['£9.99', '5 entry credits', '1 March 2030', 'cancel at any time'],
  },
  subscription_reminder: {
    vars: { tier_name: 'Gold', amount: '£9.99', renewal_date: '1 March 2030' },
    subject: /renews on 1 March 2030/,
    mustSay: ['£9.99', 'cancel'],
  },
  subscription_payment_failed: {
    vars: {
      tier_name: 'Gold',
      amount: '£9.99',
      retry_date: '2 March 2030',
      grace_end: '8 March 2030',
    },
    subject: /could not take your Gold membership payment/,
    mustSay: ['£9.99', '2 March 2030', '8 March 2030'],
  },
  subscription_cancelled: {
    vars: { tier_name: 'Gold', ends: '1 March 2030', refund: '£7.00' },
    subject: /Gold membership is cancelled/,
    mustSay: ['1 March 2030', '£7.00 is being refunded'],
  },
  raffle_winner: {
    vars: { giveaway_name: 'Camper van', ticket: 42, prize: 'A fitted camper van', instant: false },
    subject: /You won Camper van!/,
    mustSay: ['Ticket 42 won in Camper van', 'A fitted camper van'],
  },
  password_reset: {
    vars: { link: LINK, expires_minutes: 60 },
    subject: /Reset your Shop password/,
    mustSay: [LINK, '60 minutes'],
  },
  password_set: {
    vars: { link: LINK, expires_minutes: 60 },
    subject: /Set your Shop password/,
    mustSay: [LINK],
  },
  purchase_existing: {
    vars: PURCHASE,
    subject: /Your 5 tickets for Dream Car/,
    mustSay: ['Dream Car', 'Tickets: 5', '1001–1005', '£12.50', 'ord-42', '1 March 2027'],
  },
  purchase_new: {
    vars: { ...PURCHASE, link: LINK, expires_minutes: 60 },
    subject: /Your 5 tickets for Dream Car/,
    mustSay: ['1001–1005', '£12.50', LINK, 'Set my password'],
  },
  raffle_entry: {
    vars: { giveaway_name: 'Dream Car', ticket_quantity: 1, ticket_ranges: '77', entry_method: 'credits' },
    subject: /You are in the draw for Dream Car/,
    mustSay: ['(credits)', 'Ticket numbers: 77'],
  },
  cms_new_user: {
    vars: { link: LINK, expires_minutes: 60 },
    subject: /Your Shop account is ready/,
    mustSay: [LINK],
  },
  welcome: {
    vars: {},
    subject: /Welcome to Shop/,
    mustSay: ['Thank you for joining Shop', 'https://shop.example.com/'],
  },
};

describe('our own e-mail templates', () => {
  it.each(ALL_MAIL_KINDS)('render %s with a subject, an HTML part and a text part', (kind) => {
    const { vars, subject, mustSay } = CASES[kind];
    const mail = renderMail(kind, { ...SITE, first_name: 'Jane', ...vars });
    expect(mail.subject).toMatch(subject);
    expect(mail.html).toMatch(/^<!doctype html>/);
    expect(mail.text).toContain('Hello Jane,');
    expect(mail.html).toContain('Hello Jane,');
    for (const words of mustSay) {
      expect(mail.text).toContain(words);
      expect(mail.html).toContain(words.replace(/&/g, '&amp;').replace(/=/g, '&#x3D;'));
    }
    expect(mail.text).not.toMatch(/\{\{|\}\}/);
    expect(mail.html).not.toMatch(/\{\{|\}\}/);
  });

  it('say "ticket" for one and "tickets" for more', () => {
    expect(renderMail('purchase_existing', { ...SITE, ...PURCHASE, ticket_quantity: 1 }).subject).toBe(
      'Your 1 ticket for Dream Car',
    );
  });

  it('greet "there" when the name is unknown or empty', () => {
    expect(renderMail('welcome', { ...SITE, first_name: null }).text).toContain('Hello there,');
    expect(renderMail('welcome', SITE).text).toContain('Hello there,');
  });

  it('are branded by the site: its name, its address and the year', () => {
    const mail = renderMail('welcome', SITE);
    expect(mail.html).toContain('<strong style="font-size:20px">Shop</strong>');
    expect(mail.html).toContain('&copy; 2027');
    expect(mail.text).toContain('© 2027 Shop\nhttps://shop.example.com/');
  });

  it('are restyled by a raffle’s mailer_email_params', () => {
    const mail = renderMail('purchase_existing', {
      ...SITE,
      ...PURCHASE,
      brand_name: 'Mega Draws',
      brand_logo_url: 'https://cdn.example.com/logo.png',
      brand_site_url: 'https://megadraws.example.com',
      color_accent: '#ff0066',
      color_bg: '#000000',
      color_button_text: 'white',
      color_footer_text: '#999',
      color_text_primary: '#eeeeee',
      email_title: 'Good luck, Jane!',
      unsubscribe: 'https://megadraws.example.com/unsubscribe',
      unsubscribe_preferences: 'https://megadraws.example.com/preferences',
      language: 'en-GB',
    });
    expect(mail.html).toContain('<img src="https://cdn.example.com/logo.png" alt="Mega Draws"');
    expect(mail.html).toContain('background:#ff0066;color:white');
    expect(mail.html).toContain('background:#000000');
    expect(mail.html).toContain('color:#eeeeee');
    expect(mail.html).toContain('<h1 style="margin:0;font-size:22px">Good luck, Jane!</h1>');
    expect(mail.html).toContain('lang="en-GB"');
    expect(mail.html).toContain('href="https://megadraws.example.com/unsubscribe"');
    expect(mail.text).toContain('Unsubscribe: https://megadraws.example.com/unsubscribe');
    expect(mail.text).toContain('E-mail preferences: https://megadraws.example.com/preferences');
    expect(mail.text).toContain('See my entries: https://megadraws.example.com/');
  });

  it('let no markup or script in through the variables', () => {
    const mail = renderMail('purchase_existing', {
      ...SITE,
      ...PURCHASE,
      giveaway_name: '<script>alert(1)</script>',
      color_accent: 'red;background:url(javascript:alert(1))',
      brand_logo_url: 'javascript:alert(1)',
      brand_site_url: 'javascript:alert(2)',
    });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;');
    expect(mail.html).not.toContain('javascript:');
    expect(mail.html).toContain('background:#1f2937');
  });

  it('leave the button out when its link is not an http(s) address', () => {
    const mail = renderMail('magic_link', { ...SITE, link: 'javascript:alert(1)', expires_minutes: 15 });
    expect(mail.html).not.toContain('javascript:');
    expect(mail.text).not.toContain('Sign in: javascript');
  });
});

describe('purchase mails for a payment that bought no tickets', () => {
  it('speak of the payment, not of tickets', () => {
    const mail = renderMail('purchase_existing', {
      site_name: 'Shop',
      giveaway_name: 'Top-up',
      amount: '£5.00',
    });
    expect(mail.subject).toBe('Your payment for Top-up');
    expect(mail.text).toContain('We have your payment for Top-up.');
    expect(mail.text).not.toMatch(/draw|Good luck/);
    const merch = renderMail('purchase_new', {
      site_name: 'Shop',
      giveaway_name: 'Merchandise (2 items)',
      link: 'https://shop.example.com/set',
      expires_minutes: 60,
    });
    expect(merch.text).toContain('We have your payment for Merchandise (2 items).');
    expect(merch.text).not.toContain('in the draw');
    expect(
      renderMail('purchase_existing', { site_name: 'Shop', giveaway_name: 'Dream Car', ticket_quantity: 2 })
        .subject,
    ).toBe('Your 2 tickets for Dream Car');
  });
});
