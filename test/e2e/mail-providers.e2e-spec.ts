import { MAIL_KINDS } from '#app/modules/mail/mail.types.js';
import { api } from '../support/api';
import { createTestApp, type TestApp } from '../support/app';
import { FakeMailer } from '../support/fake-mailer';
import { type MadeUser, makeSite, makeUser, uid } from '../support/factories';
import {
  ALL_KIND_SUBJECTS,
  ALL_KIND_VARIABLES,
  createSiteVia,
  mailJobsTo,
  makeDue,
  queueMail,
  welcomeMailToTheLastAttempt,
} from '../support/mail';

const MAILER_KEY = 'xkeysib-site-key-never-shown-0001';

describe('e-mail through the provider’s API and the outbox', () => {
  let t: TestApp;
  let fake: FakeMailer;
  let root: MadeUser;

  beforeAll(async () => {
    fake = await new FakeMailer().accept(MAILER_KEY).start();
    t = await createTestApp({ mailerBaseUrl: fake.url });
    root = await makeUser(t, await makeSite(t), { role: 'superadmin' });
  });
  afterAll(async () => {
    await t.close();
    await fake.stop();
  });

  describe('email_provider "mailer"', () => {
    function mailerSite(extra: object = {}): Promise<string> {
      return createSiteVia(t, root.token, {
        email_provider: 'mailer',
        mailer_api_key: MAILER_KEY,
        mailer_master_template_id: '1',
        mailer_magic_link_template_id: '10',
        mailer_generic_magic_link_template_id: '20',
        mailer_generic_password_reset_template_id: '21',
        mailer_purchase_new_template_id: 'purchase-new-v2',
        email_bcc_for_purchases: 'orders@shop.example',
        frontend_url: 'https://shop.example',
        ...extra,
      });
    }

    it('sends through the provider with the site’s key, choosing specific, then generic, then master template', async () => {
      const site = await mailerSite();
      const to = `api-${uid()}@example.com`;
      await queueMail(t, 'magic_link', site, to, { ...ALL_KIND_VARIABLES.magic_link, first_name: 'Jane' });
      await queueMail(t, 'password_reset', site, to, ALL_KIND_VARIABLES.password_reset);
      await queueMail(t, 'welcome', site, to);
      await queueMail(t, 'purchase_new', site, to, ALL_KIND_VARIABLES.purchase_new);
      await t.drain();
      const calls = fake.to(to);
      expect(calls.map((c) => c.body.templateId).sort()).toEqual([1, 10, 21, 'purchase-new-v2'].sort());
      for (const call of calls) {
        expect(call.headers['api-key']).toBe(MAILER_KEY);
        expect(call.headers['content-type']).toMatch(/application\/json/);
      }
      const magic = calls.find((c) => c.body.templateId === 10);
      expect(magic?.body.to).toEqual([{ email: to, name: 'Jane' }]);
      expect(magic?.body.params).toMatchObject({
        link: ALL_KIND_VARIABLES.magic_link.link,
        expires_minutes: 15,
        first_name: 'Jane',
        site_name: `Shop ${site}`,
        brand_name: `Shop ${site}`,
        frontend_url: 'https://shop.example',
        current_year: String(new Date().getUTCFullYear()),
      });
      expect(magic?.body.bcc).toBeUndefined();
      expect(t.smtp.to(to)).toHaveLength(0);
    });

    it('copies purchase mails to email_bcc_for_purchases, in a call of their own', async () => {
      const site = await mailerSite();
      const to = `buyer-${uid()}@example.com`;
      const copiesBefore = fake.to('orders@shop.example').length;
      await queueMail(t, 'purchase_existing', site, to, ALL_KIND_VARIABLES.purchase_existing);
      await t.drain();
      const [call] = fake.to(to);
      expect(call.body.bcc).toBeUndefined();
      expect(call.body.templateId).toBe(1);
      const receipt = { giveaway_name: 'Dream Car', ticket_quantity: 5, amount: '£12.50' };
      expect(call.body.params).toMatchObject(receipt);
      const copies = fake.to('orders@shop.example').slice(copiesBefore);
      expect(copies).toHaveLength(1);
      expect(copies[0].body).toMatchObject({ templateId: 1, params: receipt });
    });

    it('copies a new buyer’s purchase mail to email_bcc_for_purchases on its own, without the password-set link', async () => {
      const site = await mailerSite();
      const to = `new-buyer-${uid()}@example.com`;
      const ticket_ranges = `${Date.now()}-${uid()}`;
      await queueMail(t, 'purchase_new', site, to, { ...ALL_KIND_VARIABLES.purchase_new, ticket_ranges });
      await t.drain();
      const [own] = fake.to(to);
      expect(own.body.bcc).toBeUndefined();
      expect(own.body.params).toMatchObject({ link: ALL_KIND_VARIABLES.purchase_new.link });
      const copies = fake
        .to('orders@shop.example')
        .filter((c) => c.body.params.ticket_ranges === '2001-2002');
      expect(copies).toHaveLength(1);
      expect(copies[0].body.bcc).toBeUndefined();
      expect(copies[0].body.params).toMatchObject({ giveaway_name: 'Dream Car', amount: '£5.00' });
      expect(JSON.stringify(copies[0].body)).not.toContain('pn-123');
    });

    it('passes a raffle’s mailer_email_params to the template as params', async () => {
      const site = await mailerSite();
      const to = `fan-${uid()}@example.com`;
      await queueMail(t, 'raffle_entry', site, to, {
        ...ALL_KIND_VARIABLES.raffle_entry,
        brand_name: 'Mega Draws',
        color_accent: '#ff0066',
        plural: false,
      });
      await t.drain();
      expect(fake.to(to)[0].body.params).toMatchObject({
        brand_name: 'Mega Draws',
        color_accent: '#ff0066',
        plural: false,
        entry_method: 'credits',
      });
    });

    it('keeps a refused send queued for a retry and delivers it when the provider recovers', async () => {
      const site = await mailerSite();
      const to = `retry-${uid()}@example.com`;
      fake.fail(503);
      try {
        await queueMail(t, 'welcome', site, to);
        await t.drain();
      } finally {
        fake.fail(null);
      }
      const [job] = await mailJobsTo(t, to);
      expect(job.state).toBe('retry');
      expect(JSON.stringify(job.output)).toMatch(/mail provider answered 503/);
      await makeDue(t, job.id);
      await t.drain();
      expect((await mailJobsTo(t, to))[0].state).toBe('completed');
      expect(fake.to(to)).toHaveLength(1);
    });

    it('records the last failure with a key the provider does not know, without the key', async () => {
      const site = await mailerSite({ mailer_api_key: 'xkeysib-unknown-key-0009' });
      const user = await makeUser(t, site);
      await welcomeMailToTheLastAttempt(t, site, user);
      expect((await mailJobsTo(t, user.email))[0].state).toBe('failed');
      const entries = await t.db.query<Array<{ metadata: { error: string } }>>(
        `SELECT metadata FROM activity_logs WHERE user_id = $1 AND activity_type = 'mail_failed'`,
        [user.user.id],
      );
      expect(entries).toHaveLength(1);
      expect(entries[0].metadata.error).toMatch(/401/);
      expect(JSON.stringify(entries)).not.toContain('xkeysib-unknown-key-0009');
    });

    it('never shows the site’s key in any answer', async () => {
      const site = await mailerSite();
      const admin = await makeUser(t, site, { role: 'admin' });
      const res = await api(t.app).as(admin.token).get(`/admin/site-configs/${site}`).expect(200);
      expect(res.body.mailer_api_key).toBe('****0001');
      expect(res.text).not.toContain(MAILER_KEY);
    });
  });

  describe('email_provider "log" and the outbox', () => {
    async function logSite(): Promise<{ site: string; admin: MadeUser }> {
      const site = await createSiteVia(t, root.token, {
        email_provider: 'log',
        email_bcc_for_purchases: 'orders@shop.example',
      });
      return { site, admin: await makeUser(t, site, { role: 'admin' }) };
    }

    it('writes every kind to the outbox instead of sending it, listed newest first', async () => {
      const { site, admin } = await logSite();
      const to = `logged-${uid()}@example.com`;
      for (const kind of MAIL_KINDS) {
        await queueMail(t, kind, site, to, ALL_KIND_VARIABLES[kind]);
        await t.drain();
      }
      expect(t.smtp.to(to)).toHaveLength(0);
      const res = await api(t.app).as(admin.token).get(`/admin/outbox?site_id=${site}`).expect(200);
      const entries = res.body as Array<{
        kind: keyof typeof ALL_KIND_SUBJECTS;
        to: string;
        subject: string;
      }>;
      const mine = entries.filter((e) => e.to === to);
      expect(mine.map((e) => e.kind)).toEqual([...MAIL_KINDS].reverse());
      // Each purchase mail copied to the purchase BCC on its own (a new buyer's as the receipt, without the link).
      expect(entries.filter((e) => e.to !== to).map((e) => [e.kind, e.to])).toEqual([
        ['purchase_existing', 'orders@shop.example'],
        ['purchase_existing', 'orders@shop.example'],
      ]);
      for (const entry of mine) {
        expect(entry.to).toBe(to);
        expect(entry.subject).toMatch(ALL_KIND_SUBJECTS[entry.kind]);
      }
      expect(Object.keys(res.body[0]).sort()).toEqual(['created_at', 'id', 'kind', 'subject', 'to']);
    });

    it('shows one message whole, with its text and HTML parts; the purchase BCC’s copy is one of its own', async () => {
      const { site, admin } = await logSite();
      const to = `whole-${uid()}@example.com`;
      await queueMail(t, 'purchase_existing', site, to, ALL_KIND_VARIABLES.purchase_existing);
      await t.drain();
      const listed = (await api(t.app).as(admin.token).get(`/admin/outbox?site_id=${site}`).expect(200))
        .body as Array<{ id: string; to: string }>;
      const whole = async (address: string) => {
        const entry = listed.find((e) => e.to === address)!;
        return (await api(t.app).as(admin.token).get(`/admin/outbox/${entry.id}`).expect(200)).body as {
          raw: string;
        };
      };
      const own = await whole(to);
      expect(own).toMatchObject({ kind: 'purchase_existing', to, subject: 'Your 5 tickets for Dream Car' });
      expect(own.raw).not.toMatch(/^Bcc:/im);
      expect(own.raw).toMatch(/Content-Type: text\/plain/);
      expect(own.raw).toMatch(/Content-Type: text\/html/);
      expect(await whole('orders@shop.example')).toMatchObject({
        kind: 'purchase_existing',
        to: 'orders@shop.example',
        subject: 'Your 5 tickets for Dream Car',
      });
    });

    it('pages with limit and cursor', async () => {
      const { site, admin } = await logSite();
      for (const kind of ['welcome', 'magic_link', 'password_reset'] as const) {
        await queueMail(t, kind, site, `p-${uid()}@example.com`, ALL_KIND_VARIABLES[kind]);
        await t.drain();
      }
      const first = await api(t.app).as(admin.token).get('/admin/outbox?limit=2').expect(200);
      expect(first.body.map((e: { kind: string }) => e.kind)).toEqual(['password_reset', 'magic_link']);
      const cursor = first.headers['x-next-cursor'];
      const rest = await api(t.app).as(admin.token).get(`/admin/outbox?limit=2&cursor=${cursor}`).expect(200);
      expect(rest.body.map((e: { kind: string }) => e.kind)).toEqual(['welcome']);
      await api(t.app).as(admin.token).get('/admin/outbox?limit=0').expect(400);
    });

    it('is for the site’s admins: users and other sites’ admins get 403, others’ messages 404', async () => {
      const { site, admin } = await logSite();
      await queueMail(t, 'welcome', site, `w-${uid()}@example.com`);
      await t.drain();
      const [entry] = (await api(t.app).as(admin.token).get('/admin/outbox').expect(200)).body as Array<{
        id: string;
      }>;
      const user = await makeUser(t, site);
      const other = await logSite();
      await api(t.app).as(user.token).get('/admin/outbox').expect(403);
      await api(t.app).as(other.admin.token).get(`/admin/outbox?site_id=${site}`).expect(403);
      await api(t.app).as(other.admin.token).get(`/admin/outbox/${entry.id}?site_id=${site}`).expect(403);
      await api(t.app).as(other.admin.token).get(`/admin/outbox/${entry.id}`).expect(404);
      await api(t.app).as(admin.token).get('/admin/outbox/..%2F..%2Fsecrets.json').expect(404);
      await api(t.app).as(admin.token).get('/admin/outbox/not-a-message.eml').expect(404);
      await api(t.app).as(root.token).get(`/admin/outbox/${entry.id}?site_id=${site}`).expect(200);
      expect((await api(t.app).as(other.admin.token).get('/admin/outbox').expect(200)).body).toEqual([]);
    });
  });
});

describe('MAIL_TRANSPORT=log (the default transport of a development machine)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ mailTransport: 'log' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('writes the mail of sites without settings of their own to the outbox', async () => {
    const site = await makeSite(t);
    const admin = await makeUser(t, site, { role: 'admin' });
    const to = `dev-${uid()}@example.com`;
    await queueMail(t, 'password_set', site, to, ALL_KIND_VARIABLES.password_set);
    await t.drain();
    expect(t.smtp.to(to)).toHaveLength(0);
    const [entry] = (await api(t.app).as(admin.token).get('/admin/outbox').expect(200)).body as Array<{
      id: string;
      to: string;
      kind: string;
    }>;
    expect(entry).toMatchObject({ to, kind: 'password_set' });
    const raw = (await api(t.app).as(admin.token).get(`/admin/outbox/${entry.id}`).expect(200)).body
      .raw as string;
    expect(raw.replace(/=\r?\n/g, '')).toContain('password-set?token=3Dps-123');
  });
});
