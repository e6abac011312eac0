import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import {
  FakeAnalytics,
  FakeContactSvc,
  FakeMarketing,
} from '#app/infra/providers/integrations/fake/fake-integrations.js';
import { api } from '../support/api';
import { makeUser } from '../support/factories';
import { makeDue } from '../support/mail';
import { payCheckout } from '../support/memberships';
import {
  orderAsUser,
  type PaymentsWorld,
  raffleOn,
  startPaymentsWorld,
  stopPaymentsWorld,
} from '../support/payments';

const CONTACT_KEY = `cs-${randomBytes(8).toString('hex')}`;
const ANALYTICS_KEY = `an-${randomBytes(8).toString('hex')}`;

describe('contact list and analytics kept in step through outages (issue 14)', () => {
  let w: PaymentsWorld;
  let server: Server;
  const contacts = new FakeContactSvc(CONTACT_KEY);
  const analytics = new FakeAnalytics(ANALYTICS_KEY);
  const marketing = new FakeMarketing(CONTACT_KEY);

  beforeAll(async () => {
    const app = express();
    app.use('/contactsvc', contacts.router);
    app.use('/analytics', analytics.router);
    app.use('/marketing', marketing.router);
    server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    w = await startPaymentsWorld({
      config: {
        contactsvcBaseUrl: `${url}/contactsvc`,
        analyticsBaseUrl: `${url}/analytics`,
        marketingBaseUrl: `${url}/marketing`,
      },
    });
    await api(w.t.app)
      .as(w.admin.token)
      .put(`/admin/site-configs/${w.site}`, {
        contactsvc_api_key: CONTACT_KEY,
        contactsvc_contact_list_id: '42',
        analytics_api_key: ANALYTICS_KEY,
      })
      .expect(200);
  });
  afterAll(async () => {
    await stopPaymentsWorld(w);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => {
    contacts.resetControls();
    analytics.resetControls();
    marketing.resetControls();
  });

  const jobs = (state: string) =>
    w.t.db.query<Array<{ id: string }>>(
      `SELECT id FROM pgboss.job WHERE name = 'integrations.deliver' AND state = $1 AND data->>'site_id' = $2`,
      [state, w.site],
    );

  async function retryAll(lastAttempt = false): Promise<void> {
    for (const job of await jobs('retry')) await makeDue(w.t, job.id, lastAttempt);
    await w.t.drain();
  }

  async function register(email: string) {
    const res = await api(w.t.app)
      .post('/auth/register', {
        email,
        password: 'A-good-Passw0rd-42',
        site_id: w.site,
        data_processing_consent: true,
        age_confirmed: true,
        marketing_consent: true,
      })
      .expect(201);
    return res.body as { access_token: string; user: { id: string } };
  }

  it('a sign-up during an outage answers at once; once the providers are back each delivery arrives once', async () => {
    contacts.goDown();
    analytics.goDown('reset');
    marketing.goDown();
    const email = `signup-${randomBytes(3).toString('hex')}@example.com`;
    const started = Date.now();
    const { user } = await register(email);
    expect(Date.now() - started).toBeLessThan(2_000);
    const signedUpBy = Date.now();
    await w.t.drain();
    expect(await jobs('retry')).toHaveLength(3);
    expect(contacts.contacts.has(email)).toBe(false);
    contacts.comeUp();
    analytics.comeUp();
    marketing.comeUp();
    await retryAll();
    await retryAll();
    expect(contacts.contacts.get(email)).toMatchObject({ listIds: [42], writes: 1 });
    expect(analytics.events.get(`signup:${user.id}`)).toMatchObject({ event: 'Signed Up', userId: user.id });
    // Dated when the member signed up, not when the retry got through (a dashboard counts it on that day).
    const signedUpAt = Date.parse(analytics.events.get(`signup:${user.id}`)!.timestamp!);
    expect(signedUpAt).toBeGreaterThanOrEqual(started);
    expect(signedUpAt).toBeLessThanOrEqual(signedUpBy);
    expect(await jobs('retry')).toHaveLength(0);
    // Marketing automation knows the member once, and the profile keeps its id there.
    const person = marketing.people.get(email);
    expect(person).toMatchObject({ externalId: user.id, identifies: 1 });
    const [profile] = await w.t.db.query<Array<{ marketing_id: string }>>(
      `SELECT marketing_id FROM user_profiles WHERE user_id = $1`,
      [user.id],
    );
    expect(profile.marketing_id).toBe(person?.id);
  });

  it('a purchase updates the contact and sends one Order Completed event', async () => {
    const { access_token, user } = await register(`buyer-${randomBytes(3).toString('hex')}@example.com`);
    await w.t.drain();
    const raffle = await raffleOn(w);
    const order = await orderAsUser(w, access_token, raffle.item_id, { quantity: 2 });
    await payCheckout(w, order.checkout_id);
    const event = analytics.events.get(`purchase:${order.order_id}`);
    expect(event).toMatchObject({ event: 'Order Completed', userId: user.id });
    expect(event?.properties).toMatchObject({ amount_cents: 500, currency: 'GBP', purpose: 'raffle' });
  });

  it('withdrawing marketing consent takes the member off the contact list', async () => {
    const email = `consent-${randomBytes(3).toString('hex')}@example.com`;
    const { access_token } = await register(email);
    await w.t.drain();
    expect(contacts.contacts.has(email)).toBe(true);
    await api(w.t.app).as(access_token).put('/users/profile', { marketing_consent: false }).expect(200);
    await w.t.drain();
    expect(contacts.contacts.has(email)).toBe(false);
  });

  it('a removal retried after the member opted back in leaves them on the contact list', async () => {
    const email = `reconsent-${randomBytes(3).toString('hex')}@example.com`;
    const { access_token, user } = await register(email);
    await w.t.drain();
    expect(contacts.contacts.has(email)).toBe(true);
    // Withdrawn while the contact list is down: the removal waits for its retry.
    contacts.goDown();
    await api(w.t.app).as(access_token).put('/users/profile', { marketing_consent: false }).expect(200);
    await w.t.drain();
    const [removal] = await w.t.db.query<Array<{ id: string }>>(
      `SELECT id FROM pgboss.job WHERE name = 'integrations.deliver' AND state = 'retry'
          AND data->>'kind' = 'contact_remove' AND data->>'user_id' = $1`,
      [user.id],
    );
    expect(removal).toBeDefined();
    // Back up; the member opts in again and is on the list at once.
    contacts.comeUp();
    await api(w.t.app).as(access_token).put('/users/profile', { marketing_consent: true }).expect(200);
    await w.t.drain();
    expect(contacts.contacts.has(email)).toBe(true);
    // The stale removal comes due afterwards and must not undo the member's current choice.
    await makeDue(w.t, removal.id);
    await w.t.drain();
    expect(contacts.contacts.has(email)).toBe(true);
    const [job] = await w.t.db.query<Array<{ state: string }>>(`SELECT state FROM pgboss.job WHERE id = $1`, [
      removal.id,
    ]);
    expect(job.state).toBe('completed');
  });

  it('a delivery that fails every retry is a dead letter admins see and send again, once', async () => {
    contacts.goDown();
    const email = `dead-${randomBytes(3).toString('hex')}@example.com`;
    const member = await makeUser(w.t, w.site, { email });
    await api(w.t.app).as(member.token).put('/users/profile', { marketing_consent: true }).expect(200);
    await w.t.drain();
    await retryAll(true); // its last attempt fails too
    const dead = await api(w.t.app).as(w.admin.token).get('/admin/integrations/dead-letters').expect(200);
    const mine = (
      dead.body as Array<{ id: string; kind: string; user_id: string; attempts: number; last_error: string }>
    ).filter((l) => l.user_id === member.user.id);
    expect(mine).toEqual([
      expect.objectContaining({ kind: 'contact_upsert', last_error: expect.stringMatching(/503/) }),
    ]);
    contacts.comeUp();
    await api(w.t.app)
      .as(w.admin.token)
      .post(`/admin/integrations/dead-letters/${mine[0].id}/replay`)
      .expect(200);
    await w.t.drain();
    expect(contacts.contacts.get(email)).toMatchObject({ writes: 1, listIds: [42] });
    const after = await api(w.t.app).as(w.admin.token).get('/admin/integrations/dead-letters').expect(200);
    expect((after.body as Array<{ id: string }>).map((l) => l.id)).not.toContain(mine[0].id);
    await api(w.t.app).as(member.token).get('/admin/integrations/dead-letters').expect(403);
  });

  it('keeps a dead letter listed past pg-boss’s maintenance for days, not the 12 hours of its default', async () => {
    contacts.goDown();
    const member = await makeUser(w.t, w.site);
    await api(w.t.app).as(member.token).put('/users/profile', { marketing_consent: true }).expect(200);
    await w.t.drain();
    await retryAll(true);
    contacts.comeUp();
    const listed = async () =>
      (
        (await api(w.t.app).as(w.admin.token).get('/admin/integrations/dead-letters').expect(200))
          .body as Array<{
          user_id: string;
        }>
      ).filter((l) => l.user_id === member.user.id);
    expect(await listed()).toHaveLength(1);
    // Failed six days ago; pg-boss's own maintenance (every instance runs it every few minutes) then runs.
    await w.t.db.query(
      `UPDATE pgboss.job SET completed_on = now() - interval '6 days'
        WHERE name = 'integrations.deliver' AND state = 'failed' AND data->>'user_id' = $1`,
      [member.user.id],
    );
    const boss = (w.t.jobs as unknown as { boss: { maintain(): Promise<unknown> } }).boss;
    await boss.maintain();
    expect(await listed()).toHaveLength(1);
  });

  it('a removal that fails every retry names no address in its dead letter', async () => {
    const email = `gone-${randomBytes(3).toString('hex')}@example.com`;
    const { access_token, user } = await register(email);
    await w.t.drain();
    contacts.goDown();
    await api(w.t.app).as(access_token).put('/users/profile', { marketing_consent: false }).expect(200);
    await w.t.drain();
    await retryAll(true);
    const dead = await api(w.t.app).as(w.admin.token).get('/admin/integrations/dead-letters').expect(200);
    const mine = (dead.body as Array<{ kind: string; user_id: string; last_error: string }>).filter(
      (l) => l.user_id === user.id,
    );
    expect(mine).toEqual([
      expect.objectContaining({ kind: 'contact_remove', last_error: expect.stringMatching(/503/) }),
    ]);
    expect(JSON.stringify(dead.body)).not.toContain(email.split('@')[0]);
    const [job] = await w.t.db.query<Array<{ output: unknown }>>(
      `SELECT output FROM pgboss.job WHERE name = 'integrations.deliver' AND state = 'failed'
          AND data->>'kind' = 'contact_remove' AND data->>'user_id' = $1`,
      [user.id],
    );
    expect(JSON.stringify(job.output)).not.toContain(email.split('@')[0]);
  });
});
