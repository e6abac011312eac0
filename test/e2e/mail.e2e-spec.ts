import { Logger } from '@nestjs/common';
import { MAIL_KINDS } from '#app/modules/mail/mail.types.js';
import { api } from '../support/api';
import { createTestApp, type TestApp } from '../support/app';
import { type MadeUser, makeSite, makeUser, uid } from '../support/factories';
import {
  ALL_KIND_SUBJECTS,
  ALL_KIND_VARIABLES,
  closedPort,
  createSiteVia,
  mailJobsTo,
  makeDue,
  queueMail,
  welcomeMailToTheLastAttempt,
} from '../support/mail';
import { outwardAddress } from '../support/net';
import { SmtpSink } from '../support/smtp-sink';

const SMTP_USER = 'shop-mailer';
const SMTP_PASS = 'smtp-pass-never-shown-4321';

describe('e-mail through SMTP', () => {
  let t: TestApp;
  let root: MadeUser;
  let siteSmtp: SmtpSink;
  const logged: string[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    siteSmtp = await new SmtpSink({ auth: { user: SMTP_USER, pass: SMTP_PASS } }).start();
    root = await makeUser(t, await makeSite(t), { role: 'superadmin' });
    for (const method of ['log', 'warn', 'error', 'debug', 'verbose', 'fatal'] as const) {
      jest.spyOn(Logger.prototype, method).mockImplementation(function (this: Logger, ...args: unknown[]) {
        logged.push(
          JSON.stringify(args, (_k, v: unknown) => (v instanceof Error ? `${v.name}: ${v.message}` : v)),
        );
      });
    }
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await t.close();
    await siteSmtp.stop();
  });

  /** A site whose own SMTP settings point at `siteSmtp`. */
  function ownSmtpSite(extra: object = {}): Promise<string> {
    return createSiteVia(t, root.token, {
      email_provider: 'smtp',
      smtp_host: '127.0.0.1',
      smtp_port: siteSmtp.port,
      smtp_username: SMTP_USER,
      smtp_password: SMTP_PASS,
      smtp_from: 'hello@shop.example',
      smtp_from_name: 'Shop Team',
      smtp_reply_to: 'help@shop.example',
      email_bcc_for_purchases: 'orders@shop.example',
      frontend_url: 'https://shop.example',
      ...extra,
    });
  }

  describe('the default transport (sites without settings of their own)', () => {
    it('renders every kind and delivers it to a real SMTP server, with HTML and text parts', async () => {
      const site = await makeSite(t);
      const to = (kind: string): string => `${kind}-${uid()}@example.com`;
      const addresses = Object.fromEntries(MAIL_KINDS.map((kind) => [kind, to(kind)]));
      for (const kind of MAIL_KINDS)
        await queueMail(t, kind, site, addresses[kind], ALL_KIND_VARIABLES[kind]);
      await t.drain();
      for (const kind of MAIL_KINDS) {
        const [mail] = t.smtp.to(addresses[kind]);
        expect(mail.subject).toMatch(ALL_KIND_SUBJECTS[kind]);
        expect(mail.headers['x-mail-kind']).toBe(kind);
        expect(mail.headers.from).toBe(`"Site ${site}" <no-reply@example.com>`);
        expect(mail.raw).toMatch(/Content-Type: text\/html/);
        expect(mail.text).toContain('Hello there,');
      }
      expect(t.smtp.to(addresses.purchase_new)[0].text).toContain('password-set?token=pn-123');
      expect(t.smtp.to(addresses.raffle_entry)[0].text).toContain('Ticket numbers: 77');
    });

    it('sends welcome on registration', async () => {
      const site = await makeSite(t);
      const email = `new-${uid()}@example.com`;
      await api(t.app)
        .post('/auth/register', {
          email,
          password: 'a-Long-enough-pass-7391',
          site_id: site,
          name: 'Jane',
          data_processing_consent: true,
          age_confirmed: true,
        })
        .expect(201);
      await t.drain();
      const [mail] = t.smtp.to(email);
      expect(mail.subject).toBe(`Welcome to Site ${site}`);
      expect(mail.text).toContain('Hello Jane,');
    });
  });

  describe('a site’s own SMTP settings', () => {
    it('deliver through the site’s server, logged in with its decrypted password, as its sender', async () => {
      const site = await ownSmtpSite();
      const to = `buyer-${uid()}@example.com`;
      await queueMail(t, 'purchase_new', site, to, { ...ALL_KIND_VARIABLES.purchase_new, first_name: 'Ann' });
      await t.drain();
      expect(t.smtp.to(to)).toHaveLength(0);
      const [mail] = siteSmtp.to(to);
      expect(mail.headers.from).toBe('Shop Team <hello@shop.example>');
      expect(mail.headers['reply-to']).toBe('help@shop.example');
      expect(mail.from).toBe('hello@shop.example');
      expect(mail.text).toContain('Hello Ann,');
      expect(siteSmtp.logins).toContain(SMTP_USER);
    });

    it('copy purchase mails to email_bcc_for_purchases, unseen by the buyer, and nothing else', async () => {
      const site = await ownSmtpSite();
      const buyer = `buyer-${uid()}@example.com`;
      const member = `member-${uid()}@example.com`;
      const ticket_ranges = `${Date.now()}-${uid()}`;
      await queueMail(t, 'purchase_existing', site, buyer, {
        ...ALL_KIND_VARIABLES.purchase_existing,
        ticket_ranges,
      });
      await queueMail(t, 'welcome', site, member);
      await t.drain();
      // The buyer's message goes to the buyer alone; the copy on its own, the same receipt.
      const [purchase] = siteSmtp.to(buyer);
      expect(purchase.to).toEqual([buyer]);
      expect(purchase.headers.bcc).toBeUndefined();
      const copies = siteSmtp.messages.filter(
        (m) => m.to.includes('orders@shop.example') && m.text.includes(ticket_ranges),
      );
      expect(copies.map((m) => [m.to, m.subject])).toEqual([[['orders@shop.example'], purchase.subject]]);
      expect(siteSmtp.to(member)[0].to).toEqual([member]);
      expect(
        siteSmtp.messages.filter((m) => m.to.includes('orders@shop.example') && m.to.includes(member)),
      ).toEqual([]);
    });

    it('send one purchase mail, no copy, to a buyer who reads the purchase BCC', async () => {
      const owner = `Owner-${uid()}@example.com`;
      const site = await createSiteVia(t, root.token, { email_bcc_for_purchases: owner.toLowerCase() });
      await queueMail(t, 'purchase_existing', site, owner, ALL_KIND_VARIABLES.purchase_existing);
      await t.drain();
      const theirs = t.smtp.messages.filter((m) =>
        m.to.some((to) => to.toLowerCase() === owner.toLowerCase()),
      );
      expect(theirs).toHaveLength(1);
    });

    it('send no copy of a purchase mail whose buyer’s account was erased before it went', async () => {
      const bcc = `orders-${uid()}@example.com`;
      const site = await createSiteVia(t, root.token, { email_bcc_for_purchases: bcc });
      const buyer = await makeUser(t, site);
      const admin = await makeUser(t, site, { role: 'admin' });
      await queueMail(
        t,
        'purchase_existing',
        site,
        buyer.email,
        ALL_KIND_VARIABLES.purchase_existing,
        buyer.user.id,
      );
      await api(t.app)
        .as(admin.token)
        .delete(`/admin/users/${buyer.user.id}`)
        .send({ reason: 'Asked to be forgotten' })
        .expect(204);
      await t.drain();
      expect(t.smtp.to(buyer.email)).toHaveLength(0);
      expect(t.smtp.to(bcc)).toHaveLength(0);
    });

    it('copy a new buyer’s purchase mail to email_bcc_for_purchases without its password-set link', async () => {
      const site = await ownSmtpSite();
      const buyer = `new-buyer-${uid()}@example.com`;
      const { link } = ALL_KIND_VARIABLES.purchase_new;
      const ticket_ranges = `${Date.now()}-${uid()}`;
      await queueMail(t, 'purchase_new', site, buyer, { ...ALL_KIND_VARIABLES.purchase_new, ticket_ranges });
      await t.drain();
      // The buyer's message goes to the buyer alone, with the link.
      const [own] = siteSmtp.to(buyer);
      expect(own.to).toEqual([buyer]);
      expect(own.text).toContain(String(link));
      // The bookkeeping inbox gets the receipt on its own: the order, not the account's one-time link.
      const copies = siteSmtp.messages.filter(
        (m) => m.to.includes('orders@shop.example') && m.text.includes(ticket_ranges),
      );
      expect(copies).toHaveLength(1);
      expect(copies[0].to).toEqual(['orders@shop.example']);
      expect(copies[0].subject).toBe(own.subject);
      expect(copies[0].raw).not.toContain('pn-123');
      expect(copies[0].text).not.toMatch(/password/i);
    });

    it('deliver every kind', async () => {
      const site = await ownSmtpSite();
      const to = `all-${uid()}@example.com`;
      for (const kind of MAIL_KINDS) await queueMail(t, kind, site, to, ALL_KIND_VARIABLES[kind]);
      await t.drain();
      expect(
        siteSmtp
          .to(to)
          .map((m) => m.headers['x-mail-kind'])
          .sort(),
      ).toEqual([...MAIL_KINDS].sort());
    });

    it('let a raffle’s mailer_email_params brand the message and name the sender', async () => {
      const site = await ownSmtpSite();
      const to = `fan-${uid()}@example.com`;
      await queueMail(t, 'purchase_existing', site, to, {
        ...ALL_KIND_VARIABLES.purchase_existing,
        brand_name: 'Mega Draws',
        brand_site_url: 'https://megadraws.example',
        color_accent: '#ff0066',
        from_name: 'Mega Draws Team',
        reply_to_email: 'draws@megadraws.example',
        unsubscribe: 'https://megadraws.example/unsubscribe',
      });
      await t.drain();
      const [mail] = siteSmtp.to(to);
      expect(mail.headers.from).toBe('Mega Draws Team <hello@shop.example>');
      expect(mail.headers['reply-to']).toBe('draws@megadraws.example');
      expect(mail.text).toContain('Unsubscribe: https://megadraws.example/unsubscribe');
      expect(mail.text).toContain('Mega Draws');
      expect(mail.raw.replace(/=\r?\n/g, '')).toContain('#ff0066');
    });

    it('take effect on the next message after an admin changes them', async () => {
      const site = await ownSmtpSite();
      const admin = await makeUser(t, site, { role: 'admin' });
      const other = await new SmtpSink().start();
      try {
        await api(t.app)
          .as(admin.token)
          .put(`/admin/site-configs/${site}`, {
            smtp_port: other.port,
            smtp_username: null,
            // Another server: the stored password must be sent again or cleared (SECRET_REQUIRED).
            smtp_password: null,
            smtp_from_name: 'Renamed',
          })
          .expect(200);
        const to = `after-${uid()}@example.com`;
        await queueMail(t, 'welcome', site, to);
        await t.drain();
        expect(siteSmtp.to(to)).toHaveLength(0);
        expect(other.to(to)[0].headers.from).toBe('Renamed <hello@shop.example>');
      } finally {
        await other.stop();
      }
    });

    it('carry the welcome of a registration on that site', async () => {
      const site = await ownSmtpSite();
      const email = `joiner-${uid()}@example.com`;
      await api(t.app)
        .post('/auth/register', {
          email,
          password: 'a-Long-enough-pass-7391',
          site_id: site,
          data_processing_consent: true,
          age_confirmed: true,
        })
        .expect(201);
      await t.drain();
      expect(siteSmtp.to(email)[0].subject).toBe(`Welcome to Shop ${site}`);
    });
  });

  describe('a failed send', () => {
    it('stays queued for a retry with back-off, and on the last attempt is failed and in the activity log', async () => {
      const site = await ownSmtpSite({ smtp_port: await closedPort() });
      const user = await makeUser(t, site);
      await queueMail(t, 'welcome', site, user.email, {}, user.user.id);
      await t.drain();
      const [job] = await mailJobsTo(t, user.email);
      expect(job).toMatchObject({ state: 'retry', retry_count: 0, retry_limit: 5 });
      expect(JSON.stringify(job.output)).toMatch(/ECONNREFUSED/);
      const logs = `SELECT * FROM activity_logs WHERE user_id = $1 AND activity_type = 'mail_failed'`;
      expect(await t.db.query(logs, [user.user.id])).toHaveLength(0);

      await makeDue(t, job.id, true);
      await t.drain();
      const [failed] = await mailJobsTo(t, user.email);
      expect(failed).toMatchObject({ state: 'failed', retry_count: 5 });
      const [entry] = await t.db.query<Array<Record<string, unknown>>>(logs, [user.user.id]);
      expect(entry).toMatchObject({
        site_id: site,
        severity: 'warning',
        resource_type: 'mail_job',
        resource_id: job.id,
        // The account says whose mail it was; the address itself is named only for a mail to no account.
        metadata: { kind: 'welcome', attempts: 6, error: expect.stringMatching(/ECONNREFUSED/) },
      });
      expect(JSON.stringify(entry)).not.toContain(SMTP_PASS);
    });

    it('shows the member their failed mail without the transport’s error, and forgets the address on erasure', async () => {
      const site = await ownSmtpSite({ smtp_port: await closedPort() });
      const user = await makeUser(t, site);
      await welcomeMailToTheLastAttempt(t, site, user);
      const me = await api(t.app).as(user.token).get('/users/me').expect(200);
      const seen = (me.body.activity_logs as Array<{ activity_type: string; metadata: unknown }>).find(
        (l) => l.activity_type === 'mail_failed',
      );
      // The error names the site's mail server (its address and port): staff read it in the log and the job.
      expect(seen?.metadata).toEqual({ kind: 'welcome', attempts: 6 });
      // A record as written before addresses were left out of them: the erasure takes them out.
      await t.db.query(
        `UPDATE activity_logs SET metadata = metadata || jsonb_build_object('to', $2::text, 'error', $3::text)
          WHERE user_id = $1 AND activity_type = 'mail_failed'`,
        [user.user.id, user.email, `452 <${user.email}>: mailbox full`],
      );
      const admin = await makeUser(t, site, { role: 'admin' });
      await api(t.app)
        .as(admin.token)
        .delete(`/admin/users/${user.user.id}`)
        .send({ reason: 'Asked to be forgotten' })
        .expect(204);
      const kept = await t.db.query(`SELECT metadata FROM activity_logs WHERE user_id = $1`, [user.user.id]);
      expect(JSON.stringify(kept)).not.toContain(user.email);
    });

    it('keeps no address in the record of a failure the server refused quoting it', async () => {
      const refusing = await new SmtpSink({ refuseRecipients: true }).start();
      try {
        const site = await ownSmtpSite({
          smtp_port: refusing.port,
          smtp_username: null,
          smtp_password: null,
        });
        const user = await makeUser(t, site);
        await welcomeMailToTheLastAttempt(t, site, user);
        const logs = `SELECT metadata FROM activity_logs WHERE user_id = $1 AND activity_type = 'mail_failed'`;
        const [entry] = await t.db.query<Array<{ metadata: { error: string } }>>(logs, [user.user.id]);
        expect(entry.metadata.error).toMatch(/<recipient>>?: Recipient address rejected/);
        expect(JSON.stringify(entry)).not.toContain(user.email);
      } finally {
        await refusing.stop();
      }
    });

    it('retries a purchase mail the server refused for the buyer though it took the site’s copy', async () => {
      const refusing = await new SmtpSink({
        refuseRecipients: (address) => address.startsWith('full-'),
      }).start();
      try {
        const site = await ownSmtpSite({
          smtp_port: refusing.port,
          smtp_username: null,
          smtp_password: null,
        });
        const buyer = `full-${uid()}@example.com`;
        await queueMail(t, 'purchase_existing', site, buyer, ALL_KIND_VARIABLES.purchase_existing);
        await t.drain();
        // The buyer's mailbox is full (452, try later): their mail waits for a retry, it is not "sent".
        const [job] = await mailJobsTo(t, buyer);
        expect(job.state).toBe('retry');
        expect(JSON.stringify(job.output)).toMatch(/mailbox full/);
        // The site's copy went, once.
        expect(refusing.messages.map((m) => m.to)).toEqual([['orders@shop.example']]);
      } finally {
        await refusing.stop();
      }
    });

    it('is retried and delivered once the server answers again', async () => {
      const port = await closedPort();
      const site = await ownSmtpSite({ smtp_port: port, smtp_username: null, smtp_password: null });
      const to = `later-${uid()}@example.com`;
      await queueMail(t, 'welcome', site, to);
      await t.drain();
      const [job] = await mailJobsTo(t, to);
      expect(job.state).toBe('retry');
      const revived = await new SmtpSink().start();
      try {
        const admin = await makeUser(t, site, { role: 'admin' });
        await api(t.app)
          .as(admin.token)
          .put(`/admin/site-configs/${site}`, { smtp_port: revived.port })
          .expect(200);
        await makeDue(t, job.id);
        await t.drain();
        expect((await mailJobsTo(t, to))[0].state).toBe('completed');
        expect(revived.to(to)).toHaveLength(1);
      } finally {
        await revived.stop();
      }
    });

    // A server across a network, as far as the app can tell: this machine's own address on an interface.
    const outward = outwardAddress();
    (outward ? it : it.skip)(
      'never sends the login to a server that offers no STARTTLS (stripped on the way): the mail waits',
      async () => {
        const stripped = await new SmtpSink({
          auth: { user: SMTP_USER, pass: SMTP_PASS },
          host: outward,
        }).start();
        try {
          const site = await ownSmtpSite({ smtp_host: outward, smtp_port: stripped.port });
          const to = `guarded-${uid()}@example.com`;
          await queueMail(t, 'welcome', site, to);
          await t.drain();
          const [job] = await mailJobsTo(t, to);
          expect(job.state).toBe('retry');
          expect(JSON.stringify(job.output)).toMatch(/STARTTLS/);
          expect(stripped.logins).toEqual([]);
          expect(stripped.messages).toEqual([]);
        } finally {
          await stripped.stop();
        }
      },
    );

    it('with a wrong SMTP password names the refusal, never the password', async () => {
      const site = await ownSmtpSite({ smtp_password: 'wrong-password-9876' });
      const to = `denied-${uid()}@example.com`;
      await queueMail(t, 'welcome', site, to);
      await t.drain();
      const [job] = await mailJobsTo(t, to);
      expect(job.state).toBe('retry');
      expect(JSON.stringify(job.output)).toMatch(/Invalid login|auth/i);
      expect(JSON.stringify(job.output)).not.toContain('wrong-password-9876');
    });
  });

  describe('after all of the above', () => {
    it('no site secret was written to the logs or to queued jobs', async () => {
      const jobs = await t.db.query(`SELECT data, output FROM pgboss.job WHERE name = 'mail.send'`);
      const text = `${logged.join('\n')}\n${JSON.stringify(jobs)}`;
      expect(logged.length).toBeGreaterThan(0);
      for (const secret of [SMTP_PASS, 'wrong-password-9876']) expect(text).not.toContain(secret);
    });
  });
});
