import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { RAFFLE_EXAMPLE } from '#app/modules/raffles/raffles.examples.js';
import { api } from '../support/api';
import { makeSite, makeUser, type MadeUser, uid } from '../support/factories';
import { type SandboxApp, startSandboxApp } from '../support/sandbox-app';

/**
 * A newcomer's walk in a real browser: Swagger UI (authorise, Try it out), the sandbox pay page, the
 * e-mail's password link, and the signed-in page it leads to. Debian's `chromium` (installed by .ci/run)
 * driven by playwright-core; no browser is ever downloaded. Screenshots go to test/artifacts/.
 */
const BROWSER = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (path): path is string => !!path && existsSync(path),
);
const IN_CI = process.env.CI === 'true';
const ARTIFACTS = join(__dirname, '..', 'artifacts');

/** Quiet, offline, throwaway: nothing leaves the machine but requests to the app under test. */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const describeWithBrowser = BROWSER || IN_CI ? describe : describe.skip;
if (!BROWSER && !IN_CI)
  process.stderr.write(
    'browser.e2e-spec: skipped, no Chromium at /usr/bin/chromium (install it with `apt-get install -y chromium`, ' +
      'or set CHROMIUM_PATH). In CI (CI=true) a missing browser fails instead.\n',
  );

describeWithBrowser(
  'a newcomer in a real browser: Swagger UI, the sandbox pay page, the e-mail’s link',
  () => {
    jest.setTimeout(180_000);
    let t: SandboxApp;
    let site: string;
    let admin: MadeUser;
    let context: BrowserContext | undefined;
    let page: Page;
    let profile: string;
    const problems: string[] = [];

    const shot = async (name: string): Promise<void> => {
      await page.screenshot({ path: join(ARTIFACTS, `browser-${name}.png`) });
    };

    beforeAll(async () => {
      if (!BROWSER)
        throw new Error('CI=true and no Chromium: .ci/run installs Debian’s chromium before the tests');
      mkdirSync(ARTIFACTS, { recursive: true });
      t = await startSandboxApp();
      site = await makeSite(t, { frontendUrl: null });
      admin = await makeUser(t, site, { role: 'admin' });
      profile = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
      const browser = await chromium.launchPersistentContext(profile, {
        executablePath: BROWSER,
        headless: true,
        args: FLAGS,
        viewport: { width: 1280, height: 900 },
      });
      context = browser;
      page = browser.pages().at(0) ?? (await browser.newPage());
      page.on('pageerror', (error) => problems.push(error.message));
    });
    afterAll(async () => {
      await context?.close();
      if (profile) rmSync(profile, { recursive: true, force: true });
      await (t as SandboxApp | undefined)?.close();
    });

    it('authorises in Swagger UI with a token and creates a raffle through Try it out', async () => {
      await page.goto(`${t.base}/`);
      await page.waitForSelector('.swagger-ui .info .title');
      expect(page.url()).toBe(`${t.base}/docs`);
      expect(await page.title()).toBe('Membership, raffle and rewards service · API console');
      await shot('1-swagger-ui');

      await page.click('.auth-wrapper button.authorize');
      await page.fill('.modal-ux input', admin.token);
      await page.click('.modal-ux button.authorize');
      await page.click('.modal-ux button.btn-done');
      await shot('2-authorised');

      // The operation by its deep link (a fresh load: Swagger UI reads the link when it starts, and keeps the
      // authorisation across reloads); its example fills the body (Try it out is on by default).
      await page.goto(`${t.base}/docs#/admin:%20raffles/createRaffle`);
      await page.reload();
      const operation = page.locator('.opblock.is-open');
      await expect(operation.locator('.opblock-summary-path').getAttribute('data-path')).resolves.toBe(
        '/admin/raffles',
      );
      await operation.scrollIntoViewIfNeeded();
      await operation.locator('button.execute').click();
      const status = operation.locator('.live-responses-table .response .response-col_status').first();
      await expect(status.innerText()).resolves.toMatch(/^201/);
      await status.scrollIntoViewIfNeeded();
      await shot('3-try-it-out-created');

      const made = await api(t.app).as(admin.token).get(`/admin/raffles?site_id=${site}`).expect(200);
      const raffle = (made.body as Array<{ id: string; item_id: string }>).find(
        (r) => r.item_id === RAFFLE_EXAMPLE.item_id,
      );
      expect(raffle).toBeDefined();
      await api(t.app).as(admin.token).post(`/admin/raffles/${raffle!.id}/publish`).expect(200);
    });

    it('buys two tickets on the sandbox pay page, then follows the e-mail’s password link to a signed-in page', async () => {
      const email = `browser-${uid()}@example.com`;
      const order = await api(t.app)
        .post('/gatewayone/create-order', {
          item_id: RAFFLE_EXAMPLE.item_id,
          site_id: site,
          quantity: 2,
          customer_email: email,
        })
        .expect(200);

      await page.goto(order.body.checkout_url as string);
      await page.waitForSelector('button[value=pay]');
      await shot('4-pay-page');
      await page.click('button[value=pay]');
      await page.waitForSelector('text=What happens next');
      expect(await page.locator('a', { hasText: 'The e-mails' }).getAttribute('href')).toBe(
        `${t.base}/docs#/admin:%20mail/listOutbox`,
      );
      await shot('5-paid-next-steps');

      await t.drain();
      const purchase = t.smtp.to(email).find((m) => m.text.includes('/set-password?token='));
      const link = /https?:\/\/\S+\/set-password\?token=[A-Za-z0-9_-]+/.exec(purchase?.text ?? '')?.[0];
      expect(link).toBeDefined();
      expect(link!.startsWith(`${t.base}/sandbox/sites/${site}/set-password`)).toBe(true);

      await page.goto(link!);
      await page.fill('#password', 'a-browser-chosen-passphrase-7');
      await shot('6-set-password');
      await page.click('button[type=submit]');
      await page.waitForURL(`${t.base}/sandbox/sites/${site}/`);
      await page.locator('#signed-in').waitFor({ state: 'visible' });
      await expect(page.locator('#who').innerText()).resolves.toBe(email);
      const row = page.locator('#entries tr').first();
      await row.waitFor();
      await expect(row.innerText()).resolves.toContain(RAFFLE_EXAMPLE.name);
      await expect(row.innerText()).resolves.toContain('1–2');
      await shot('7-signed-in-my-entries');
      expect(problems).toEqual([]);
    });

    it('follows an admin’s e-mailed reset link to the service’s own page and lands in the console, authorised', async () => {
      // A clean slate: the first test left the console authorised with the admin's token.
      await page.goto(`${t.base}/docs`);
      await page.evaluate('localStorage.clear()');
      await api(t.app).post('/auth/password-reset', { email: admin.email, site_id: site }).expect(200);
      await t.drain();
      const mail = t.smtp.to(admin.email).find((m) => m.text.includes('/reset-password?token='));
      const link = /https?:\/\/\S+\/reset-password\?token=[A-Za-z0-9_-]+/.exec(mail?.text ?? '')?.[0];
      expect(link?.startsWith(`${t.base}/staff/reset-password?token=`)).toBe(true);

      await page.goto(link!);
      await page.fill('#password', 'an-admin-chosen-passphrase-8');
      await page.click('button[type=submit]');
      await page.waitForURL(`${t.base}/docs`);
      await page.waitForSelector('.auth-wrapper button.authorize.locked');
      const kept = await page.evaluate<string | null>("localStorage.getItem('authorized')");
      const token = (JSON.parse(kept ?? '{}') as { bearer?: { value?: string } }).bearer?.value ?? '';
      expect(token).not.toBe(admin.token);
      await api(t.app).as(token).get('/users/me').expect(200);
      await shot('8-staff-reset-console');
      expect(problems).toEqual([]);
    });
  },
);
