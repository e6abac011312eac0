import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { api } from '../support/api';
import { createTestApp, type TestApp } from '../support/app';
import { makeSite, makeUser } from '../support/factories';

describe('mail: the log transport keeps messages in the outbox', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ mailTransport: 'log' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('writes the password-reset e-mail as an .eml file once its job runs', async () => {
    const site = await makeSite(t);
    const u = await makeUser(t, site);
    await api(t.app).post('/auth/password-reset', { email: u.email, site_id: site }).expect(200);
    const outbox = join(t.config.dataDir, 'outbox', site);
    expect(() => readdirSync(outbox)).toThrow(); // nothing before the job runs
    expect(await t.drain()).toBeGreaterThanOrEqual(1);
    const files = readdirSync(outbox);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/password_reset.*\.eml$/);
    const eml = readFileSync(join(outbox, files[0]), 'utf8');
    expect(eml).toContain(`To: ${u.email}`);
    expect(eml).toMatch(/reset-password\?token=/);
    const jobs = await t.jobs.jobsOf('mail.send');
    expect(jobs.filter((j) => (j.data as { to: string }).to === u.email).map((j) => j.state)).toEqual([
      'completed',
    ]);
  });

  it('keeps a link into a staff account out of the site’s outbox, on the server’s disk only', async () => {
    const site = await makeSite(t);
    const admin = await makeUser(t, site, { role: 'admin' });
    await api(t.app).post('/auth/password-reset', { email: admin.email, site_id: site }).expect(200);
    await t.drain();
    expect(() => readdirSync(join(t.config.dataDir, 'outbox', site))).toThrow();
    expect((await api(t.app).as(admin.token).get('/admin/outbox').expect(200)).body).toEqual([]);
    const staff = join(t.config.dataDir, 'outbox-staff');
    const mine = readdirSync(staff).filter((f) =>
      readFileSync(join(staff, f), 'utf8').includes(`To: ${admin.email}`),
    );
    expect(mine).toHaveLength(1);
  });

  it('sends nothing when the request changed nothing (unknown account)', async () => {
    const site = await makeSite(t);
    await api(t.app).post('/auth/password-reset', { email: 'nobody@example.com', site_id: site }).expect(200);
    await t.drain();
    expect(() => readdirSync(join(t.config.dataDir, 'outbox', site))).toThrow();
  });
});
