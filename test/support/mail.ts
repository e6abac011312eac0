import { createServer } from 'node:net';
import { MailService } from '#app/modules/mail/mail.service.js';
import type { MailKind, MailVariables } from '#app/modules/mail/mail.types.js';
import { api } from './api';
import type { TestApp } from './app';
import { uid } from './factories';

/** Queues one e-mail as a feature would (`MailService.send`), outside any transaction. */
export async function queueMail(
  t: TestApp,
  kind: MailKind,
  siteId: string,
  to: string,
  variables: MailVariables = {},
  userId: string | null = null,
): Promise<void> {
  await t.app.get(MailService).send({ kind, siteId, to, userId, variables });
}

/** A site made through endpoint 18 by a superadmin; answers its site_id. */
export async function createSiteVia(t: TestApp, superadminToken: string, settings: object): Promise<string> {
  const siteId = `mail-${uid()}`;
  await api(t.app)
    .as(superadminToken)
    .post('/admin/site-configs', { site_id: siteId, display_name: `Shop ${siteId}`, ...settings })
    .expect(201);
  return siteId;
}

/** The mail.send jobs addressed to one recipient, as pg-boss holds them. */
export async function mailJobsTo(
  t: TestApp,
  to: string,
): Promise<Array<{ id: string; state: string; retry_count: number; retry_limit: number; output: unknown }>> {
  return t.db.query(
    `SELECT id, state, retry_count, retry_limit, output FROM pgboss.job
      WHERE name = 'mail.send' AND data->>'to' = $1 ORDER BY created_on`,
    [to],
  );
}

/** Makes a retrying job due now, as if its back-off had passed; `lastAttempt` makes the next run its last. */
export async function makeDue(t: TestApp, jobId: string, lastAttempt = false): Promise<void> {
  await t.db.query(
    `UPDATE pgboss.job SET start_after = now()${lastAttempt ? ', retry_count = retry_limit - 1' : ''}
      WHERE id = $1`,
    [jobId],
  );
}

/**
 * Queues a welcome mail to an account of `siteId` and runs it to its last attempt, every attempt going through
 * the site's transport (which the caller has made fail): the mail job, as it was after its first attempt.
 */
export async function welcomeMailToTheLastAttempt(
  t: TestApp,
  siteId: string,
  user: { email: string; user: { id: string } },
): Promise<{ id: string; state: string; retry_count: number; retry_limit: number; output: unknown }> {
  await queueMail(t, 'welcome', siteId, user.email, {}, user.user.id);
  await t.drain();
  const [job] = await mailJobsTo(t, user.email);
  await makeDue(t, job.id, true);
  await t.drain();
  return job;
}

/** A loopback port nothing listens on. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export const ALL_KIND_VARIABLES: Record<MailKind, MailVariables> = {
  purchase_refunded: { giveaway_name: 'Dream Car', amount: '£12.50', order_id: 'ord-42' },
  payment_refunded: { giveaway_name: 'Dream Car', amount: '£5.00', order_id: 'ord-43' },
  subscription_started: { tier_name: 'Gold', amount: '£9.99', credits: 5, next_billing_date: '1 March 2030' },
  subscription_reminder: {
    tier_name: 'Gold',
    amount: '£9.99',
    renewal_date: '1 March 2030',
    manage_url: 'https://shop.example.com/account',
  },
  subscription_payment_failed: {
    tier_name: 'Gold',
    amount: '£9.99',
    retry_date: '2 March 2030',
    grace_end: '8 March 2030',
    card_url: 'https://shop.example.com/account',
  },
  subscription_cancelled: { tier_name: 'Gold', ends: '1 March 2030', refund: '£7.00' },
  raffle_winner: { giveaway_name: 'Camper van', ticket: 42, prize: 'A camper van', instant: false },
  magic_link: { link: 'https://shop.example.com/magic-link?token=ml-123', expires_minutes: 15 },
  password_reset: { link: 'https://shop.example.com/password-reset?token=pr-123', expires_minutes: 60 },
  password_set: { link: 'https://shop.example.com/password-set?token=ps-123', expires_minutes: 60 },
  purchase_existing: {
    giveaway_name: 'Dream Car',
    ticket_quantity: 5,
    ticket_ranges: '1001-1005',
    amount: '£12.50',
    order_id: 'ord-1',
  },
  purchase_new: {
    giveaway_name: 'Dream Car',
    ticket_quantity: 2,
    ticket_ranges: '2001-2002',
    amount: '£5.00',
    link: 'https://shop.example.com/password-set?token=pn-123',
    expires_minutes: 60,
  },
  raffle_entry: {
    giveaway_name: 'Dream Car',
    ticket_quantity: 1,
    ticket_ranges: '77',
    entry_method: 'credits',
  },
  cms_new_user: { link: 'https://shop.example.com/password-set?token=cms-123', expires_minutes: 60 },
  welcome: {},
};

/** What the subject of each kind says, given ALL_KIND_VARIABLES. */
export const ALL_KIND_SUBJECTS: Record<MailKind, RegExp> = {
  purchase_refunded: /has been refunded/,
  payment_refunded: /^We have refunded £5\.00$/,
  subscription_started: /^Your Gold membership has started$/,
  subscription_reminder: /^Your Gold membership renews on 1 March 2030$/,
  subscription_payment_failed:
    /^We could not take your Gold membership payment$|could not take your Gold payment/,
  subscription_cancelled: /^Your Gold membership is cancelled$/,
  raffle_winner: /^You won Camper van!$/,
  magic_link: /sign-in link/,
  password_reset: /^Reset your .+ password$/,
  password_set: /^Set your .+ password$/,
  purchase_existing: /^Your 5 tickets for Dream Car$/,
  purchase_new: /^Your 2 tickets for Dream Car$/,
  raffle_entry: /^You are in the draw for Dream Car$/,
  cms_new_user: /account is ready$/,
  welcome: /^Welcome to /,
};
