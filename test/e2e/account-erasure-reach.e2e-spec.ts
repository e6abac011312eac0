import { api } from '../support/api';
import { DEFAULT_PASSWORD, makeUser, uid } from '../support/factories';
import { holdRows, untilWaiting } from '../support/held-rows';
import {
  payCheckout,
  runJob,
  subscribe,
  tierOn,
  withRoot,
  type MembershipWorld,
} from '../support/memberships';
import { startPaymentsWorld, stopPaymentsWorld } from '../support/payments';

const onPostgres = !!process.env.TEST_DATABASE_URL;
const pgIt = onPostgres ? it : it.skip;

/** What an erasure must reach beyond the account row (found by a review; DECISIONS, fifth session). */
describe('an erased account, everywhere it was', () => {
  let w: MembershipWorld;

  beforeAll(async () => {
    w = await withRoot(await startPaymentsWorld());
  });
  afterAll(() => stopPaymentsWorld(w));

  const deleteMe = (user: { token: string }, body: object = { password: DEFAULT_PASSWORD }) =>
    api(w.t.app).as(user.token).delete('/users/me').send(body);
  const send = <T>(request: PromiseLike<T>): Promise<T> => Promise.resolve(request);

  it('starts no membership from an expired start’s checkout paid after the erasure, and refunds it', async () => {
    const tier = await tierOn(w);
    const member = await makeUser(w.t, w.site);
    const started = await subscribe(w, member, tier.id);
    // The checkout is left unpaid for a day: the expiries job marks it incomplete_expired.
    await w.t.db.query(`UPDATE subscriptions SET created_at = now() - interval '25 hours' WHERE id = $1`, [
      started.subscription.id,
    ]);
    await runJob(w, 'expiries');
    const [before] = await w.t.db.query(`SELECT status FROM subscriptions WHERE id = $1`, [
      started.subscription.id,
    ]);
    expect(before.status).toBe('incomplete_expired');

    await deleteMe(member).expect(204);
    // The hosted form, still open in a tab, is paid afterwards (the webhook arrives after the erasure).
    await payCheckout(w, started.checkout_id);

    const [s] = await w.t.db.query(`SELECT status, auto_renew FROM subscriptions WHERE id = $1`, [
      started.subscription.id,
    ]);
    const refunds = w.fakes.gatewayOne.payments.get(started.checkout_id)?.refunds ?? [];
    expect({ status: s.status, auto_renew: s.auto_renew, refunded: refunds.length > 0 }).toEqual({
      status: expect.not.stringMatching(/^(active|trialing)$/),
      auto_renew: false,
      refunded: true,
    });
  });

  it('delivers no e-mail queued before the erasure to the erased address', async () => {
    const user = await makeUser(w.t, w.site, { email: `queued-${uid()}@example.com` });
    // A reset asked for just before the deletion; its mail job has not run yet.
    await api(w.t.app).post('/auth/password-reset', { email: user.email, site_id: w.site }).expect(200);
    await deleteMe(user).expect(204);
    await w.t.drain();
    expect(w.t.smtp.to(user.email).map((m) => m.subject)).toEqual([]);
  });

  it('keeps nothing the person typed into a website form, in the submission or the webhook inbox', async () => {
    const email = `form-${uid()}@example.com`;
    const id = `sub-${uid()}`;
    await api(w.t.app)
      .as(w.admin.token)
      .post('/admin/cms/replay-submission', {
        triggerType: 'form_submission',
        payload: {
          id,
          name: 'Join the club',
          siteId: w.site,
          formId: 'form-1',
          formElementId: 'el-1',
          pageId: 'page-1',
          publishedPath: '/join',
          submittedAt: new Date().toISOString(),
          data: { 'Your E-mail': email, 'First Name': 'Sam', 'Last Name': 'Taylor', Phone: '+447700900456' },
          schema: [
            { fieldElementId: 'a', fieldName: 'Your E-mail', fieldType: 'email' },
            { fieldElementId: 'b', fieldName: 'First Name', fieldType: 'plain' },
            { fieldElementId: 'c', fieldName: 'Last Name', fieldType: 'plain' },
            { fieldElementId: 'd', fieldName: 'Phone', fieldType: 'tel' },
          ],
        },
      })
      .expect(200);
    const [member] = await w.t.db.query(`SELECT id FROM users WHERE email_normalized = $1`, [email]);
    await api(w.t.app).as(w.admin.token).delete(`/admin/users/${member.id}`).send({}).expect(204);
    const rows = await w.t.db.query(`SELECT payload FROM cms_submissions WHERE submission_id = $1`, [id]);
    expect(rows).toHaveLength(1); // the submission stays, so a resend is still known
    const inbox = await w.t.db.query(
      `SELECT payload FROM inbound_events WHERE provider = 'cms' AND event_key = $1`,
      [`${w.site}:${id}`],
    );
    const kept = JSON.stringify([rows, inbox]);
    expect({
      email: kept.includes(email),
      phone: kept.includes('+447700900456'),
      surname: kept.includes('Taylor'),
    }).toEqual({ email: false, phone: false, surname: false });
  });

  pgIt('writes no profile back onto an account erased while the update was on its way', async () => {
    const user = await makeUser(w.t, w.site);
    // Line the erasure up at the member's profile row, then send a profile update behind it.
    const { holder, release } = await holdRows(
      `SELECT user_id FROM user_profiles WHERE user_id = $1 FOR UPDATE`,
      [user.user.id],
    );
    const erase = send(api(w.t.app).as(w.admin.token).delete(`/admin/users/${user.user.id}`).send({}));
    await untilWaiting(holder, 1);
    const update = send(
      api(w.t.app)
        .as(user.token)
        .put('/users/profile', {
          marketing_consent: true,
          profile: { first_name: 'Racey', last_name: 'Writer', phone_number: '+447700900999', city: 'Leeds' },
        }),
    );
    await untilWaiting(holder, 2);
    await release();
    const [e, u] = await Promise.all([erase, update]);
    const [row] = await w.t.db.query(
      `SELECT u.deleted_at IS NOT NULL AS deleted, u.marketing_consent, p.first_name, p.last_name, p.phone_number, p.city
         FROM users u JOIN user_profiles p ON p.user_id = u.id WHERE u.id = $1`,
      [user.user.id],
    );
    expect({ erase: e.status, update: u.status, row }).toEqual({
      erase: 204,
      update: expect.any(Number),
      row: {
        deleted: true,
        marketing_consent: false,
        first_name: null,
        last_name: null,
        phone_number: null,
        city: null,
      },
    });
  });
});
