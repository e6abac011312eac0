import { api } from '../support/api';
import { createTestApp, type TestApp } from '../support/app';
import { makeSite, makeUser } from '../support/factories';

describe('bad input gets a clear error and changes nothing', () => {
  let t: TestApp;
  let site: string;
  beforeAll(async () => {
    t = await createTestApp();
    site = await makeSite(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers malformed JSON with 400 problem+json', async () => {
    const res = await api(t.app).post('/auth/login', '{"email": ').expect(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      detail: 'The request body is not valid JSON.',
      status: 400,
    });
  });

  describe('a deeply nested body', () => {
    const deep = (levels: number): string => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

    it('is refused with 400 before anything reads it, without a token (5,000 levels, ~50 KB)', async () => {
      const res = await api(t.app).post('/auth/login', deep(5000)).expect(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.body).toMatchObject({
        code: 'VALIDATION_FAILED',
        detail: 'The request body nests deeper than 32 levels.',
      });
    });

    it('is refused in the order endpoints’ own shape there', async () => {
      for (const path of ['/gatewayone/create-order', '/gatewaytwo/create-order']) {
        const res = await api(t.app).post(path, deep(5000)).expect(400);
        expect(res.body).toEqual({
          success: false,
          error: 'The request body nests deeper than 32 levels.',
          error_code: 'VALIDATION_FAILED',
          message: 'The request body nests deeper than 32 levels.',
        });
      }
    });

    it('within 32 levels reaches validation, which names the field', async () => {
      const email = '['.repeat(31) + '1' + ']'.repeat(31);
      const res = await api(t.app)
        .post('/auth/login', `{"email":${email},"password":"x","site_id":"${site}"}`)
        .expect(400);
      expect(res.body.errors).toEqual([{ field: 'email', message: 'email must be a string' }]);
    });
  });

  describe('a body holding the NUL character, which no column can store', () => {
    const detail = 'The request body holds the NUL character (\\u0000), which no field can store.';

    it('is refused with 400 before anything reads it, and nothing is written', async () => {
      const email = `nul-${Date.now()}@example.com`;
      const body = {
        email,
        password: 'A-good-Passw0rd-42',
        site_id: site,
        name: 'Sam\u0000',
        data_processing_consent: true,
        age_confirmed: true,
      };
      const res = await api(t.app).post('/auth/register', body).expect(400);
      expect(res.body).toMatchObject({
        code: 'VALIDATION_FAILED',
        detail,
        errors: [
          { field: 'name', message: 'name holds the NUL character (\\u0000), which cannot be stored' },
        ],
      });
      expect(await t.db.query(`SELECT 1 FROM users WHERE email_normalized = $1`, [email])).toHaveLength(0);
      // The text "\u0000" (an escaped backslash) is only text.
      await api(t.app)
        .post('/auth/register', { ...body, name: 'Sam \\u0000' })
        .expect(201);
    });

    it('is refused in the order endpoints’ own shape there', async () => {
      const res = await api(t.app)
        .post('/gatewayone/create-order', { confirmation_only: true, order_id: 'x\u0000' })
        .expect(400);
      expect(res.body).toEqual({
        success: false,
        error: detail,
        error_code: 'VALIDATION_FAILED',
        message: 'order_id: order_id holds the NUL character (\\u0000), which cannot be stored',
      });
    });
  });

  it('refuses ISO 8601 dates nothing reads in every date field (400 naming the field), changing nothing', async () => {
    const admin = await makeUser(t, site, { role: 'admin' });
    const member = await makeUser(t, site);
    const week = '2026-W23-1';
    const fieldsOf = (body: unknown) =>
      (body as { errors: Array<{ field: string }> }).errors.map((e) => e.field);
    const raffle = await api(t.app)
      .as(admin.token)
      .post('/admin/raffles', {
        name: 'Week raffle',
        currency: 'GBP',
        price_display: 1,
        total_entries_available: 10,
        start_date: week,
        end_date: '2031-01-01T00:00:00Z',
      })
      .expect(400);
    expect(fieldsOf(raffle.body)).toEqual(['start_date']);
    const limits = await api(t.app)
      .as(member.token)
      .put('/users/me/limits', { paused_until: week })
      .expect(400);
    expect(fieldsOf(limits.body)).toEqual(['paused_until']);
    const pause = await api(t.app)
      .as(admin.token)
      .post('/admin/subscriptions/pause', {
        subscription_id: '5b0e7a52-6f8e-4c0b-a3c1-8d9e2f7a1b34',
        paused_until: week,
        reason: 'Asked for a break',
      })
      .expect(400);
    expect(fieldsOf(pause.body)).toEqual(['paused_until']);
    expect(await t.db.query(`SELECT 1 FROM raffles WHERE name = 'Week raffle'`)).toEqual([]);
  });

  it('reports a value of the wrong type by its type alone, not by the ranges it also fails', async () => {
    const admin = await makeUser(t, site, { role: 'admin' });
    const res = await api(t.app)
      .as(admin.token)
      .post('/admin/raffles', {
        name: 'Typed',
        currency: 'GBP',
        price_display: '2.5',
        total_entries_available: 10,
        start_date: '2026-01-01T00:00:00Z',
        end_date: '2036-01-01T00:00:00Z',
      })
      .expect(400);
    expect(res.body.errors).toEqual([{ field: 'price_display', message: expect.stringMatching(/number/) }]);
    const missing = await api(t.app).as(admin.token).post('/admin/raffles', {}).expect(400);
    for (const field of ['name', 'currency', 'price_display', 'start_date'])
      expect(missing.body.errors.filter((e: { field: string }) => e.field === field)).toHaveLength(1);
  });

  it('answers a body over 1 MB with 413', async () => {
    const u = await makeUser(t, site);
    const res = await api(t.app)
      .as(u.token)
      .put('/users/profile', { profile: { first_name: 'x'.repeat(1024 * 1024 + 10) } })
      .expect(413);
    expect(res.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', status: 413 });
    const [row] = await t.db.query(`SELECT first_name FROM user_profiles WHERE user_id = $1`, [u.user.id]);
    expect(row.first_name).toBeNull();
  });

  it('answers an unknown route with 404 problem+json', async () => {
    const res = await api(t.app).get('/no/such/route').expect(404);
    expect(res.body).toMatchObject({ code: 'NOT_FOUND', status: 404 });
  });

  it('echoes a sane X-Request-Id and makes one otherwise', async () => {
    const given = await api(t.app).get('/health/live').set('X-Request-Id', 'abc-123').expect(200);
    expect(given.headers['x-request-id']).toBe('abc-123');
    const made = await api(t.app)
      .get('/health/live')
      .set('X-Request-Id', 'bad id with spaces <script>')
      .expect(200);
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends security headers and honours configured CORS origins only', async () => {
    const res = await api(t.app).get('/health/live').set('Origin', 'https://app.example.com').expect(200);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['access-control-allow-origin']).toBe('https://app.example.com');
    const foreign = await api(t.app).get('/health/live').set('Origin', 'https://evil.example').expect(200);
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('failures of our own never leak internals', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 500 with a generic body, and readiness 503, when the database goes away', async () => {
    const site = await makeSite(t);
    const u = await makeUser(t, site);
    await t.db.destroy();
    const res = await api(t.app).as(u.token).get('/users/me').expect(500);
    expect(res.body).toEqual({
      type: 'about:blank#internal_error',
      title: 'Internal Server Error',
      status: 500,
      detail: 'An unexpected error occurred.',
      code: 'INTERNAL_ERROR',
      request_id: res.headers['x-request-id'],
    });
    const ready = await api(t.app).get('/health/ready').expect(503);
    expect(ready.body.code).toBe('NOT_READY');
    expect(ready.headers['retry-after']).toBeDefined();
    await api(t.app).get('/health/live').expect(200);
  });
});
