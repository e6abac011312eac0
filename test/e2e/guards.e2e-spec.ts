import { createHmac } from 'node:crypto';
import { api } from '../support/api';
import { createTestApp, TEST_JWT_SECRET, type TestApp } from '../support/app';
import { makeSite, makeUser } from '../support/factories';

function b64(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function jwt(header: object, claims: object, secret: string | null): string {
  const unsigned = `${b64(header)}.${b64(claims)}`;
  const signature = secret === null ? '' : createHmac('sha256', secret).update(unsigned).digest('base64url');
  return `${unsigned}.${signature}`;
}

describe('a wrong or missing token never reaches a protected handler', () => {
  let t: TestApp;
  let site: string;
  beforeAll(async () => {
    t = await createTestApp();
    site = await makeSite(t);
  });
  afterAll(async () => {
    await t.close();
  });

  const now = () => Math.floor(Date.now() / 1000);
  const claimsFor = (id: string, extra: object = {}) => ({
    sub: id,
    site_id: site,
    role: 'user',
    jti: 'test',
    iat: now(),
    exp: now() + 600,
    ...extra,
  });

  it('answers no token with 401 problem+json and a request id', async () => {
    const res = await api(t.app).get('/users/me').expect(401);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.body).toMatchObject({
      status: 401,
      code: 'UNAUTHENTICATED',
      request_id: res.headers['x-request-id'],
    });
  });

  it.each([
    [
      'a wrong signature',
      (id: string) => jwt({ alg: 'HS256', typ: 'JWT' }, claimsFor(id), 'not-the-secret-not-the-secret-123'),
    ],
    ['alg none', (id: string) => jwt({ alg: 'none', typ: 'JWT' }, claimsFor(id), null)],
    [
      'HS512 instead of HS256',
      (id: string) => {
        const unsigned = `${b64({ alg: 'HS512', typ: 'JWT' })}.${b64(claimsFor(id))}`;
        return `${unsigned}.${createHmac('sha512', TEST_JWT_SECRET).update(unsigned).digest('base64url')}`;
      },
    ],
    [
      'an expired token',
      (id: string) =>
        jwt(
          { alg: 'HS256', typ: 'JWT' },
          claimsFor(id, { iat: now() - 1000, exp: now() - 10 }),
          TEST_JWT_SECRET,
        ),
    ],
    [
      'a token without jti',
      (id: string) =>
        jwt({ alg: 'HS256', typ: 'JWT' }, { ...claimsFor(id), jti: undefined }, TEST_JWT_SECRET),
    ],
    ['garbage', () => 'not.a.jwt'],
  ])('refuses %s with 401', async (_what, make) => {
    const u = await makeUser(t, site);
    await api(t.app).as(make(u.user.id)).get('/users/me').expect(401);
  });

  it('accepts a correctly signed token it did not issue itself only while the user exists', async () => {
    const u = await makeUser(t, site);
    const token = jwt({ alg: 'HS256', typ: 'JWT' }, claimsFor(u.user.id), TEST_JWT_SECRET);
    await api(t.app).as(token).get('/users/me').expect(200);
    await t.db.query(`UPDATE users SET deleted_at = now() WHERE id = $1`, [u.user.id]);
    await api(t.app).as(token).get('/users/me').expect(401);
    await api(t.app).as(u.token).get('/users/me').expect(401);
  });

  it('refuses a malformed Authorization header', async () => {
    const u = await makeUser(t, site);
    const { default: request } = await import('supertest');
    await request(t.app.getHttpServer())
      .get('/users/me')
      .set('Authorization', `Token ${u.token}`)
      .expect(401);
    await request(t.app.getHttpServer()).get('/users/me').set('Authorization', 'Bearer').expect(401);
  });

  it('takes the role from the account, not the token: a demoted admin loses admin routes at once', async () => {
    const admin = await makeUser(t, site, { role: 'admin' });
    await api(t.app).as(admin.token).get('/admin/users').expect(200);
    await t.db.query(`UPDATE users SET role = 'user' WHERE id = $1`, [admin.user.id]);
    await api(t.app).as(admin.token).get('/admin/users').expect(403);
  });

  describe('roles: user < admin < superadmin', () => {
    it('keeps users out of admin routes and admins out of superadmin routes (403)', async () => {
      const user = await makeUser(t, site);
      const admin = await makeUser(t, site, { role: 'admin' });
      const res = await api(t.app).as(user.token).get('/admin/users').expect(403);
      expect(res.body.code).toBe('FORBIDDEN');
      await api(t.app)
        .as(admin.token)
        .put(`/admin/users/${user.user.id}/role`, { role: 'admin' })
        .expect(403);
    });
  });

  describe('site scoping', () => {
    it('refuses a user or admin naming another site (query, body or X-Site-Id) with 403', async () => {
      const other = await makeSite(t);
      const admin = await makeUser(t, site, { role: 'admin' });
      await api(t.app).as(admin.token).get(`/admin/users?site_id=${other}`).expect(403);
      const { default: request } = await import('supertest');
      await request(t.app.getHttpServer())
        .get('/admin/users')
        .set('Authorization', `Bearer ${admin.token}`)
        .set('X-Site-Id', other)
        .expect(403);
      await api(t.app).as(admin.token).get(`/admin/users?site_id=${site}`).expect(200);
    });

    it('lets a superadmin act on any site', async () => {
      const other = await makeSite(t);
      const superadmin = await makeUser(t, site, { role: 'superadmin' });
      const member = await makeUser(t, other);
      const res = await api(t.app).as(superadmin.token).get(`/admin/users?site_id=${other}`).expect(200);
      expect(res.body.map((u: { id: string }) => u.id)).toContain(member.user.id);
    });
  });
});
