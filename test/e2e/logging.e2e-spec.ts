import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api } from '../support/api';
import { createTestApp, type TestApp } from '../support/app';
import { DEFAULT_PASSWORD, makeSite, makeUser, uid } from '../support/factories';
import { linkToken } from '../support/smtp-sink';

// A file of its own: nestjs-pino keeps one logger per process, configured by the first app booted.
describe('logs are JSON with the request id and carry no secret', () => {
  let t: TestApp;
  let logFile: string;
  beforeAll(async () => {
    t = await createTestApp({ logLevel: 'info', logFile: join(tmpdir(), `e2e-log-${uid()}.log`) });
    logFile = t.config.logFile!;
  });
  afterAll(async () => {
    await t.close();
  });

  it('never writes passwords, tokens or the Authorization header', async () => {
    const site = await makeSite(t);
    const password = 'secret-Horse-battery-77';
    const email = `logged-${uid()}@example.com`;
    const reg = await api(t.app)
      .post('/auth/register', {
        email,
        password,
        site_id: site,
        data_processing_consent: true,
        age_confirmed: true,
      })
      .expect(201);
    await api(t.app).post('/auth/login', { email, password, site_id: site }).expect(200);
    await api(t.app).as(reg.body.access_token).get('/users/me').expect(200);
    const refreshed = await api(t.app)
      .post('/auth/refresh', { refresh_token: reg.body.refresh_token })
      .expect(200);
    await api(t.app).post('/auth/password-reset', { email, site_id: site }).expect(200);
    await t.drain();
    const resetToken = linkToken(
      t.smtp.to(email).find((m) => m.subject.includes('Reset'))!,
      'reset-password',
    );
    await api(t.app).get(`/auth/anything?token=${resetToken}`).expect(404);
    const u = await makeUser(t, site);
    await api(t.app)
      .post('/auth/login', { email: u.email, password: DEFAULT_PASSWORD, site_id: site })
      .expect(200);

    const log = readFileSync(logFile, 'utf8');
    const lines = log
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.length).toBeGreaterThan(5);
    const requestLine = lines.find((l) => (l.req as { url?: string } | undefined)?.url === '/users/me');
    expect(requestLine).toMatchObject({ request_id: expect.any(String) });
    for (const secret of [
      password,
      DEFAULT_PASSWORD,
      reg.body.access_token,
      reg.body.refresh_token,
      refreshed.body.refresh_token,
      resetToken,
    ]) {
      expect(log).not.toContain(secret);
    }
    expect(log).not.toMatch(/argon2id/);
    expect(log.toLowerCase()).not.toContain('bearer ');
  });
});
