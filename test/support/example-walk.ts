import { api } from './api';
import type { SandboxApp } from './sandbox-app';
import { linkToken, parseMail } from './smtp-sink';

/**
 * The order in which `test/e2e/examples.e2e-spec.ts` tries every request example of the document, as a
 * newcomer would on a fresh sandbox (README): sign in, a site, a user, a tier, a raffle, publish, sell,
 * pay, refund, discounts, e-mailed links, roles.
 *
 * A route with a request example (`@ApiRequestExample`, or a parameter `example`) must have a step here,
 * placed after the steps whose answers it needs. A step sends the example as the document shows it; the
 * only things it may put in are what no document can know in advance — ids and tokens earlier answers
 * or e-mails gave, and dates relative to today (`params`, `body`) — and what a person does outside the API (`before`: paying on the
 * sandbox page, waiting for the jobs, reading the outbox). It then expects the documented success status.
 * Routes without examples may also have a step when later steps need them (`publishRaffle`).
 */
export type Caller = 'none' | 'admin' | 'user';

/** What earlier steps learnt: tokens and ids. */
export type Values = Record<string, string>;

export interface WalkStep {
  operationId: string;
  /** Whose token the request carries: the README's admin (login), the newcomer (register), or none. */
  as: Caller;
  /** Path and query values that replace or add to the examples: ids earlier answers gave. */
  params?: (v: Values) => Record<string, string>;
  /** Body fields that replace the example's: ids and tokens earlier answers or e-mails gave. */
  body?: (v: Values) => Record<string, unknown>;
  /** What a person does first, outside the API. */
  before?: (w: SandboxApp, v: Values) => Promise<void>;
  /** What to keep from the answer, and what to check in it. */
  keep?: (answer: Record<string, unknown>, v: Values) => void;
}

const str = (value: unknown): string => {
  if (typeof value !== 'string') throw new Error(`expected a string, got ${JSON.stringify(value)}`);
  return value;
};

/** The token in the link of the newest `kind` e-mail to `to`, read from the outbox as an admin would. */
async function mailedToken(
  w: SandboxApp,
  v: Values,
  to: string,
  kind: string,
  path: string,
): Promise<string> {
  await w.drain();
  const list = await api(w.app).as(v.admin).get('/admin/outbox?site_id=main').expect(200);
  const entry = (list.body as Array<{ id: string; kind: string; to: string }>).find(
    (e) => e.kind === kind && e.to === to,
  );
  if (!entry) throw new Error(`no ${kind} e-mail to ${to} in the outbox`);
  const message = await api(w.app).as(v.admin).get(`/admin/outbox/${entry.id}`).expect(200);
  return linkToken(parseMail(str(message.body.raw)), path);
}

/** The buyer pays on the sandbox's hosted page; the webhook's work is done. */
async function payOnSandboxPage(w: SandboxApp, checkoutUrl: string): Promise<void> {
  const paid = await fetch(checkoutUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'decision=pay',
  });
  if (!paid.ok) throw new Error(`the sandbox pay page answered ${paid.status}`);
  await w.drain();
}

const NEWCOMER = 'newcomer@example.com';

export const WALK: WalkStep[] = [
  // Sign in as the README's admin, and look at the site start-up made.
  {
    operationId: 'login',
    as: 'none',
    keep: (a, v) => {
      v.admin = str(a.access_token);
    },
  },
  {
    operationId: 'getSiteConfig',
    as: 'admin',
    keep: (a) => {
      if (a.display_name !== 'Main') throw new Error(`site main is named ${JSON.stringify(a.display_name)}`);
    },
  },
  { operationId: 'updateSiteConfig', as: 'admin' },
  { operationId: 'createSiteConfig', as: 'admin' },

  // A newcomer signs up.
  {
    operationId: 'register',
    as: 'none',
    keep: (a, v) => {
      v.user = str(a.access_token);
      v.userRefresh = str(a.refresh_token);
      v.userId = str((a.user as Record<string, unknown>).id);
    },
  },
  {
    operationId: 'refresh',
    as: 'none',
    body: (v) => ({ refresh_token: v.userRefresh }),
    keep: (a, v) => {
      v.user = str(a.access_token);
      v.userRefresh = str(a.refresh_token);
    },
  },
  { operationId: 'findUsers', as: 'admin' },
  { operationId: 'updateProfile', as: 'user' },
  { operationId: 'setLimits', as: 'user' },

  // The newcomer spins the wheel and claims the result: bonus entry credits.
  {
    operationId: 'spin',
    as: 'none',
    keep: (a, v) => {
      v.spinToken = str(a.token);
    },
  },
  { operationId: 'claimSpin', as: 'user', body: (v) => ({ token: v.spinToken }) },

  // Membership tiers.
  {
    operationId: 'createTier',
    as: 'admin',
    keep: (a, v) => {
      v.tierId = str(a.id);
    },
  },
  { operationId: 'updateTier', as: 'admin', params: (v) => ({ id: v.tierId }) },
  { operationId: 'listAllTiers', as: 'admin' },
  { operationId: 'listTiers', as: 'none' },

  // Merchandise: a product, its new price, the public list.
  {
    operationId: 'createMerchProduct',
    as: 'admin',
    keep: (a, v) => {
      v.merchProductId = str(a.id);
    },
  },
  { operationId: 'updateMerchProduct', as: 'admin', params: (v) => ({ id: v.merchProductId }) },
  { operationId: 'listMerchProducts', as: 'none', params: () => ({ site_id: 'main' }) },

  // A website form from last week becomes a member.
  { operationId: 'replayCmsSubmission', as: 'admin' },

  // A raffle, published.
  {
    operationId: 'createRaffle',
    as: 'admin',
    keep: (a, v) => {
      v.raffleId = str(a.id);
    },
  },
  { operationId: 'updateRaffle', as: 'admin', params: (v) => ({ id: v.raffleId }) },
  { operationId: 'listAdminRaffles', as: 'admin' },
  { operationId: 'publishRaffle', as: 'admin', params: (v) => ({ id: v.raffleId }) },
  { operationId: 'listRaffles', as: 'none' },
  { operationId: 'getRaffleByItem', as: 'none' },
  { operationId: 'getRaffle', as: 'none', params: (v) => ({ id: v.raffleId }) },
  { operationId: 'quoteOrder', as: 'none', params: (v) => ({ id: v.raffleId }) },

  // Points for the newcomer, who enters with them; a postal entry.
  { operationId: 'adjust', as: 'admin', body: (v) => ({ user_id: v.userId }) },
  { operationId: 'enter', as: 'user', params: (v) => ({ id: v.raffleId }) },
  { operationId: 'rewardsSummary', as: 'user' },
  { operationId: 'listMyReferrals', as: 'user' },
  {
    operationId: 'enterPostal',
    as: 'admin',
    params: (v) => ({ id: v.raffleId }),
    body: (v) => ({ user_id: v.userId }),
  },

  // Selling tickets: a guest order paid on the sandbox page, refunded in part; the other gateway; a payment.
  {
    operationId: 'gatewayOneCreateOrder',
    as: 'none',
    keep: (a, v) => {
      v.orderId = str(a.order_id);
      v.checkoutUrl = str(a.checkout_url);
    },
  },
  {
    operationId: 'refundPayment',
    as: 'admin',
    params: (v) => ({ id: v.orderId }),
    before: (w, v) => payOnSandboxPage(w, v.checkoutUrl),
  },
  { operationId: 'gatewayTwoCreateOrder', as: 'none' },
  { operationId: 'createPayment', as: 'user' },
  { operationId: 'runJob', as: 'admin', params: () => ({ name: 'reconciliation' }) },

  // A membership: the newcomer subscribes and pays on the sandbox page; an admin upgrades, pauses, resumes
  // and cancels it; the newcomer cancels a second one.
  {
    operationId: 'subscribeToTier',
    as: 'user',
    body: (v) => ({ tier_id: v.tierId }),
    keep: (a, v) => {
      v.subscriptionId = str((a.subscription as Record<string, unknown>).id);
      v.subscriptionCheckoutUrl = str(a.checkout_url);
    },
  },
  // The newcomer orders merchandise (it waits for payment); an admin sees it.
  {
    operationId: 'createMerchOrder',
    as: 'user',
    body: (v) => ({ items: [{ merch_product_id: v.merchProductId, copies: 2 }] }),
    keep: (a, v) => {
      v.merchOrderId = str((a.merch_order as Record<string, unknown>).id);
    },
  },
  { operationId: 'listMerchOrders', as: 'admin' },
  { operationId: 'getMerchOrder', as: 'admin', params: (v) => ({ id: v.merchOrderId }) },
  {
    operationId: 'upgradeSubscription',
    as: 'admin',
    body: (v) => ({ subscription_id: v.subscriptionId }),
    before: async (w, v) => {
      await payOnSandboxPage(w, v.subscriptionCheckoutUrl);
      // The example upgrades to `platinum`: the admin creates that dearer tier first.
      await api(w.app)
        .as(v.admin)
        .post('/admin/subscription-tiers', {
          name: 'platinum',
          amount_cents: 1999,
          currency: 'GBP',
          entry_credits_per_period: 12,
        })
        .expect(201);
    },
  },
  {
    operationId: 'pauseSubscription',
    as: 'admin',
    // The example's date is only a shape: a pause must end within a year of today.
    body: (v) => ({
      subscription_id: v.subscriptionId,
      paused_until: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    }),
  },
  { operationId: 'resumeSubscription', as: 'admin', body: (v) => ({ subscription_id: v.subscriptionId }) },
  { operationId: 'cancelSubscription', as: 'admin', body: (v) => ({ subscription_id: v.subscriptionId }) },
  {
    operationId: 'cancelMySubscription',
    as: 'user',
    params: (v) => ({ id: v.secondSubscriptionId }),
    before: async (w, v) => {
      const res = await api(w.app).as(v.user).post('/subscriptions', { tier_id: v.tierId }).expect(201);
      const created = res.body as { subscription: { id: string }; checkout_url: string };
      v.secondSubscriptionId = created.subscription.id;
      await payOnSandboxPage(w, created.checkout_url);
    },
  },

  // Discounts: a brand, a tag, a code, bulk codes.
  {
    operationId: 'createBrand',
    as: 'admin',
    keep: (a, v) => {
      v.brandId = str(a.id);
    },
  },
  {
    operationId: 'createTag',
    as: 'admin',
    keep: (a, v) => {
      v.tagId = str(a.id);
    },
  },
  {
    operationId: 'create',
    as: 'admin',
    body: (v) => ({ discount_brand_id: v.brandId, tag_ids: [v.tagId] }),
    keep: (a, v) => {
      v.codeId = str(a.id);
    },
  },
  { operationId: 'bulkGenerate', as: 'admin', body: (v) => ({ discount_brand_id: v.brandId }) },
  { operationId: 'update', as: 'admin', params: (v) => ({ id: v.codeId }) },
  { operationId: 'list', as: 'none' },
  { operationId: 'listBrands', as: 'none' },
  { operationId: 'listTags', as: 'none' },

  // The e-mailed links: a password reset (which ends the newcomer's sessions, its access token too), a
  // sign-in link (the newcomer's session from now on); then that session's refresh token ends.
  { operationId: 'passwordReset', as: 'none' },
  {
    operationId: 'passwordSetConfirm',
    as: 'none',
    before: async (w, v) => {
      v.resetToken = await mailedToken(w, v, NEWCOMER, 'password_reset', 'reset-password');
    },
    body: (v) => ({ token: v.resetToken }),
  },
  { operationId: 'magicLink', as: 'none' },
  {
    operationId: 'magicLinkVerify',
    as: 'none',
    before: async (w, v) => {
      v.signInToken = await mailedToken(w, v, NEWCOMER, 'magic_link', 'magic-link');
    },
    body: (v) => ({ token: v.signInToken }),
    keep: (a, v) => {
      v.user = str(a.access_token);
      v.userRefresh = str(a.refresh_token);
    },
  },
  { operationId: 'logout', as: 'none', body: (v) => ({ refresh_token: v.userRefresh }) },

  // The raffle closes (its ticket list published) and is drawn; the proof shows the revealed seed.
  { operationId: 'closeRaffle', as: 'admin', params: (v) => ({ id: v.raffleId }) },
  {
    operationId: 'drawRaffle',
    as: 'admin',
    params: (v) => ({ id: v.raffleId }),
    keep: (answer) => {
      if (!Array.isArray(answer.winners) || answer.winners.length !== 1)
        throw new Error('expected one winner');
    },
  },
  // The public checks the draw: its proof, the ticket list it was drawn from, and the winners.
  { operationId: 'getDrawProof', as: 'none', params: (v) => ({ id: v.raffleId }) },
  { operationId: 'getTicketList', as: 'none', params: (v) => ({ id: v.raffleId }) },
  { operationId: 'listWinners', as: 'none', params: (v) => ({ id: v.raffleId }) },
  // The admin's lists of what still needs a hand, named by the site as every admin list takes it.
  { operationId: 'listUnclaimedPrizes', as: 'admin' },
  { operationId: 'listDeadLetters', as: 'admin' },

  // The newcomer becomes an admin of the site.
  { operationId: 'setRole', as: 'admin', params: (v) => ({ id: v.userId }) },

  // Last, accounts are deleted: a second member's by an admin, then the newcomer's own.
  {
    operationId: 'deleteUser',
    as: 'admin',
    params: (v) => ({ id: v.leaverId }),
    before: async (w, v) => {
      const res = await api(w.app)
        .post('/auth/register', {
          email: 'leaver@example.com',
          password: 'a-leaver-passphrase-44',
          site_id: 'main',
          data_processing_consent: true,
          age_confirmed: true,
        })
        .expect(201);
      v.leaverId = str((res.body as { user: { id: unknown } }).user.id);
    },
  },
  { operationId: 'deleteMe', as: 'user' },
];
