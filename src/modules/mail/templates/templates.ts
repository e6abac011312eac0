import type { MailKind } from '../mail.types.js';

export interface MailTemplate {
  subject: string;
  /**
   * Body in Handlebars, rendered into both parts: blank lines separate paragraphs, single newlines break
   * lines. Values are HTML-escaped in the HTML part.
   */
  body: string;
  /** Optional call to action: the link variable and the button text. */
  action?: { url: string; label: string };
}

/**
 * The project's own templates, one per e-mail kind, inside the branded layout of `layout.ts`.
 *
 * Variables every kind receives (from the site, then overridden by the job's variables):
 *   site_name       the site's display_name
 *   frontend_url    the site's frontend_url (the service's PUBLIC_BASE_URL when unset)
 *   first_name      the recipient's first name ("there" when unknown)
 * Branding, from the raffle's `mailer_email_params` when the sender passes them (all optional):
 *   brand_name (default site_name), brand_site_url (default frontend_url), brand_logo_url,
 *   color_accent, color_bg, color_button_text, color_footer_text, color_text_primary (CSS colours),
 *   email_title, current_year, language, unsubscribe, unsubscribe_preferences (URLs),
 *   from_name, reply_to_email (sender; see mail.rules.ts `senderOf`).
 *
 * Per kind:
 *   magic_link, password_reset, password_set, cms_new_user:
 *     link (the one-time URL), expires_minutes
 *   welcome: nothing more
 *   purchase_existing: giveaway_name, ticket_quantity (number), ticket_ranges (text, "1001–1005, 1200"),
 *     amount (formatted with its currency, "£12.50"), order_id, draw_date (formatted text)
 *   purchase_new: as purchase_existing, plus link (password-set URL) and expires_minutes
 *   raffle_entry: giveaway_name, ticket_quantity, ticket_ranges, entry_method (credits, points, free,
 *     postal), draw_date
 *   subscription_started: tier_name, amount, credits (per period), next_billing_date, trial_end_date
 *   subscription_reminder: tier_name, amount, renewal_date (its button leads to frontend_url, to cancel)
 *   subscription_payment_failed: tier_name, amount, retry_date (none: the last try failed), grace_end
 *   subscription_cancelled: tier_name, ends (when access ends), refund (formatted, when one is due)
 *   raffle_winner: giveaway_name, ticket (the winning number), prize (what was won), instant (boolean)
 * Purchase kinds also go in BCC to the site's `email_bcc_for_purchases`; a `purchase_new` goes to it as a copy of
 * its own, as `purchase_existing` (its password-set link is the buyer's alone).
 */
const TICKETS =
  '{{#if giveaway_name}}Giveaway: {{giveaway_name}}\n{{/if}}' +
  '{{#if ticket_quantity}}Tickets: {{ticket_quantity}}\n{{/if}}' +
  '{{#if ticket_ranges}}Ticket numbers: {{ticket_ranges}}\n{{/if}}' +
  '{{#if amount}}Paid: {{amount}}\n{{/if}}' +
  '{{#if order_id}}Order: {{order_id}}\n{{/if}}' +
  '{{#if draw_date}}Draw: {{draw_date}}{{/if}}';

const TICKET_WORD = '{{pluralize ticket_quantity "ticket" "tickets"}}';

/** Tickets put the buyer in a draw; any other payment (merchandise, a top-up) is confirmed as such. */
const PURCHASE_LINE =
  '{{#if ticket_quantity}}You are in the draw for {{giveaway_name}}.' +
  '{{else}}We have your payment for {{giveaway_name}}.{{/if}}';

const PURCHASE_SUBJECT =
  '{{#if ticket_quantity}}Your {{ticket_quantity}} ' +
  TICKET_WORD +
  ' for {{giveaway_name}}' +
  '{{else}}Your payment for {{giveaway_name}}{{/if}}';

export const TEMPLATES: Record<MailKind, MailTemplate> = {
  magic_link: {
    subject: 'Your {{brand_name}} sign-in link',
    body:
      'Hello {{first_name}},\n\nUse the link below to sign in to {{brand_name}}. It works once and expires in ' +
      '{{expires_minutes}} minutes.\n\nIf you did not ask for it, ignore this e-mail.',
    action: { url: '{{link}}', label: 'Sign in' },
  },
  password_reset: {
    subject: 'Reset your {{brand_name}} password',
    body:
      'Hello {{first_name}},\n\nSomeone asked to reset the password of your {{brand_name}} account. ' +
      'The link below works once and expires in {{expires_minutes}} minutes.\n\n' +
      'If it was not you, ignore this e-mail: your password stays as it is.',
    action: { url: '{{link}}', label: 'Choose a new password' },
  },
  password_set: {
    subject: 'Set your {{brand_name}} password',
    body:
      'Hello {{first_name}},\n\nAn account was made for you on {{brand_name}}. Choose a password to sign in; ' +
      'the link works once and expires in {{expires_minutes}} minutes.',
    action: { url: '{{link}}', label: 'Set my password' },
  },
  purchase_existing: {
    // A payment that bought no tickets (endpoints 4 and 6 without a raffle) is "your payment for …".
    subject: PURCHASE_SUBJECT,
    body:
      'Hello {{first_name}},\n\nThank you for your order. ' +
      PURCHASE_LINE +
      '\n\n' +
      TICKETS +
      '{{#if ticket_quantity}}\n\nGood luck!{{/if}}',
    action: { url: '{{brand_site_url}}', label: 'See my entries' },
  },
  purchase_refunded: {
    subject: 'Your order for {{giveaway_name}} has been refunded',
    body:
      'Hello {{first_name}},\n\nSorry: by the time your payment came through, the tickets you ordered for ' +
      '{{giveaway_name}} could no longer be entered (the draw sold out or you reached the most one person may ' +
      'hold). Nothing was entered, and the whole amount{{#if amount}} ({{amount}}){{/if}} is being refunded to ' +
      'your payment method.{{#if order_id}}\n\nOrder: {{order_id}}{{/if}}',
    action: { url: '{{brand_site_url}}', label: 'See other draws' },
  },
  payment_refunded: {
    subject: 'We have refunded {{amount}}',
    body:
      'Hello {{first_name}},\n\nWe have refunded {{amount}} of your payment{{#if giveaway_name}} for ' +
      '{{giveaway_name}}{{/if}} to your payment method; it may take a few days to show on your statement.' +
      '{{#if order_id}}\n\nOrder: {{order_id}}{{/if}}',
    action: { url: '{{brand_site_url}}', label: 'Visit {{brand_name}}' },
  },
  purchase_new: {
    // A payment that bought no tickets (endpoints 4 and 6 without a raffle) is "your payment for …".
    subject: PURCHASE_SUBJECT,
    body:
      'Hello {{first_name}},\n\nThank you for your order. ' +
      PURCHASE_LINE +
      '\n\n' +
      TICKETS +
      '\n\nWe made a {{brand_name}} account for you with this e-mail address. Choose a password to see your ' +
      'tickets and enter future draws; the link works once and expires in {{expires_minutes}} minutes.',
    action: { url: '{{link}}', label: 'Set my password' },
  },
  raffle_entry: {
    subject: 'You are in the draw for {{giveaway_name}}',
    body:
      'Hello {{first_name}},\n\nYour entry to {{giveaway_name}} is confirmed' +
      '{{#if entry_method}} ({{entry_method}}){{/if}}.\n\n' +
      TICKETS +
      '\n\nGood luck!',
    action: { url: '{{brand_site_url}}', label: 'See my entries' },
  },
  cms_new_user: {
    subject: 'Your {{brand_name}} account is ready',
    body:
      'Hello {{first_name}},\n\nThank you for getting in touch with {{brand_name}}. We made an account for you ' +
      'with this e-mail address. Choose a password to sign in; the link works once and expires in ' +
      '{{expires_minutes}} minutes.',
    action: { url: '{{link}}', label: 'Set my password' },
  },
  welcome: {
    subject: 'Welcome to {{brand_name}}',
    body: 'Hello {{first_name}},\n\nThank you for joining {{brand_name}}. Your account is ready.',
    action: { url: '{{brand_site_url}}', label: 'Visit {{brand_name}}' },
  },
  subscription_started: {
    subject: 'Your {{tier_name}} membership has started',
    body:
      'Hello {{first_name}},\n\nWelcome to {{tier_name}}.' +
      '{{#if trial_end_date}} Your free trial runs until {{trial_end_date}}; then {{amount}} is charged to the card ' +
      'you registered.{{else}} {{amount}} was charged to your card.{{/if}}' +
      '{{#if credits}}\n\nYou have {{credits}} entry credits to use in draws this period.{{/if}}' +
      '{{#if next_billing_date}}\n\nNext payment: {{next_billing_date}}. You can cancel at any time; within 14 ' +
      'days of each payment you get back what you have not used.{{/if}}',
    action: { url: '{{brand_site_url}}', label: 'See the draws' },
  },
  subscription_reminder: {
    subject: 'Your {{tier_name}} membership renews on {{renewal_date}}',
    body:
      'Hello {{first_name}},\n\nYour {{tier_name}} membership renews on {{renewal_date}}: {{amount}} will be ' +
      'charged to the card you registered.\n\nIf you would rather not renew, cancel before then in your ' +
      'account — cancelling is one step, and within 14 days of a renewal you can still cancel and get back what ' +
      'you have not used.',
    action: { url: '{{frontend_url}}', label: 'Manage my membership' },
  },
  subscription_payment_failed: {
    subject: 'We could not take your {{tier_name}} membership payment',
    body:
      'Hello {{first_name}},\n\nThe {{amount}} payment for your {{tier_name}} membership did not go through.' +
      '{{#if retry_date}} We will try again on {{retry_date}}.{{else}} It was the last try.{{/if}} Your membership ' +
      'ends on {{grace_end}} unless a payment goes through; enter another card to settle it now.',
    action: { url: '{{frontend_url}}', label: 'Update my card' },
  },
  subscription_cancelled: {
    subject: 'Your {{tier_name}} membership is cancelled',
    body:
      'Hello {{first_name}},\n\nYour {{tier_name}} membership is cancelled{{#if ends}}; it runs until ' +
      '{{ends}}{{/if}}.{{#if refund}} {{refund}} is being refunded to your card.{{/if}}\n\nThank you for being a member.',
    action: { url: '{{brand_site_url}}', label: 'Visit {{brand_name}}' },
  },
  raffle_winner: {
    subject: 'You won {{giveaway_name}}!',
    body:
      'Hello {{first_name}},\n\nTicket {{ticket}} won{{#if instant}} an instant prize{{/if}} in {{giveaway_name}}' +
      '{{#if prize}}: {{prize}}{{/if}}.\n\nClaim your prize in your account and we will be in touch to deliver it. ' +
      'Anyone can check the draw with its public proof.',
    action: { url: '{{brand_site_url}}', label: 'Claim my prize' },
  },
};
