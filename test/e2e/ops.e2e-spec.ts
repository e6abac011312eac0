import { Agent, request } from 'node:http';
import { api } from '../support/api';
import { createTestApp, type TestApp } from '../support/app';
import { makeSite, makeUser, uid } from '../support/factories';
import { listenOnLoopback } from '../support/fake-gateways';

describe('operations: health, metrics, rate limits', () => {
  let t: TestApp;
  let site: string;
  beforeAll(async () => {
    t = await createTestApp({ metricsToken: 'scrape-token-123' });
    site = await makeSite(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('reports liveness and readiness of the database and the job queue', async () => {
    await api(t.app).get('/health/live').expect(200);
    const ready = await api(t.app).get('/health/ready').expect(200);
    expect(ready.body.details).toMatchObject({ database: { status: 'up' }, jobs: { status: 'up' } });
  });

  it('keeps an idle keep-alive connection open past Node’s 5 s default, as a load balancer reusing it expects', async () => {
    const live = new URL('/health/live', await listenOnLoopback(t.app));
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const get = (): Promise<{ status?: number; reused: boolean }> =>
      new Promise((resolve, reject) => {
        const req = request(live, { agent }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode, reused: req.reusedSocket }));
        });
        req.on('error', reject);
        req.end();
      });
    try {
      expect(await get()).toEqual({ status: 200, reused: false });
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      // Had the server closed the idle connection, the agent would have dropped it and opened another.
      expect(await get()).toEqual({ status: 200, reused: true });
    } finally {
      agent.destroy();
    }
  });

  it('serves Prometheus metrics only with the configured token', async () => {
    await api(t.app).get('/health/live').expect(200);
    await api(t.app).get('/metrics').expect(401);
    const res = await api(t.app).as('scrape-token-123').get('/metrics').expect(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.text).toContain('http_request_duration_seconds');
    expect(res.text).toContain('process_cpu_user_seconds_total');
  });

  it('limits registrations to 5 a minute per IP with 429 and Retry-After', async () => {
    const ip = '203.0.113.7';
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await api(t.app)
        .from(ip)
        .post('/auth/register', {
          email: `rl-${uid()}@example.com`,
          password: 'rate-Limit-pass-88',
          site_id: site,
          data_processing_consent: true,
          age_confirmed: true,
        });
      statuses.push(res.status);
      if (res.status === 429) {
        expect(res.body).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    // Another address is not affected.
    await api(t.app)
      .from('203.0.113.8')
      .post('/auth/register', {
        email: `rl-${uid()}@example.com`,
        password: 'rate-Limit-pass-88',
        site_id: site,
        data_processing_consent: true,
        age_confirmed: true,
      })
      .expect(201);
  });

  it('applies the limits a site sets for itself (additional_settings.rate_limits), the defaults elsewhere', async () => {
    const strict = await makeSite(t);
    const admin = await makeUser(t, strict, { role: 'admin' });
    await api(t.app)
      .as(admin.token)
      .put(`/admin/site-configs/${strict}`, {
        additional_settings: { rate_limits: { 'register-ip': 2, 'login-email': 3 } },
      })
      .expect(200);
    const register = (ip: string, siteId: string) =>
      api(t.app)
        .from(ip)
        .post('/auth/register', {
          email: `rl-${uid()}@example.com`,
          password: 'rate-Limit-pass-88',
          site_id: siteId,
          data_processing_consent: true,
          age_confirmed: true,
        });
    const registered: number[] = [];
    for (let i = 0; i < 3; i++) registered.push((await register('203.0.113.20', strict)).status);
    expect(registered).toEqual([201, 201, 429]);
    const email = `target-${uid()}@example.com`;
    const logins: number[] = [];
    for (let i = 0; i < 4; i++)
      logins.push(
        (await api(t.app).post('/auth/login', { email, password: 'guess-number-x1', site_id: strict }))
          .status,
      );
    expect(logins).toEqual([401, 401, 401, 429]);
    // The default site keeps DESIGN §9's five a minute.
    for (let i = 0; i < 5; i++) expect((await register('203.0.113.21', site)).status).toBe(201);
  });

  it('limits logins to 10 a minute per e-mail, whatever the address', async () => {
    const email = `target-${uid()}@example.com`;
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await api(t.app).post('/auth/login', { email, password: 'guess-number-x1', site_id: site });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it('limits password-reset e-mails to 5 an hour per address', async () => {
    const u = await makeUser(t, site);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push(
        (await api(t.app).post('/auth/password-reset', { email: u.email, site_id: site })).status,
      );
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});
