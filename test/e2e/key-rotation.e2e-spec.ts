import { execFile } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { decryptSecret } from '#app/infra/crypto/secret-box.js';
import { api } from '../support/api';
import { createTestApp, TEST_JWT_SECRET, type TestApp } from '../support/app';
import { makeSite, makeUser } from '../support/factories';

/**
 * Issue 15, operations: rotating JWT_SECRET and SECRETS_KEY without downtime (README "Operations").
 * The run's database holds its secrets under the suite's key (32 bytes of 7); this file rotates them to a
 * new key and, whatever happens, back.
 */
const OLD_KEY = Buffer.alloc(32, 7);
const NEW_KEY = Buffer.alloc(32, 9);
const run = promisify(execFile);

/** `npm run secrets:rotate` (built) against the run's database, with the given keys. */
function rotate(current: Buffer, previous: Buffer): Promise<{ stdout: string }> {
  return run(process.execPath, [join(__dirname, '..', '..', 'dist', 'src', 'bin', 'rotate-secrets.js')], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      DATABASE_URL: process.env.E2E_DATABASE_URL,
      JWT_SECRET: TEST_JWT_SECRET,
      SECRETS_KEY: current.toString('hex'),
      SECRETS_KEY_PREVIOUS: previous.toString('hex'),
      LOG_LEVEL: 'silent',
    },
  });
}

/** An HS256 access token with the service's claims, signed with `secret`. */
function accessToken(secret: string, user: { id: string; site_id: string; role: string }): string {
  const head = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const body = Buffer.from(
    JSON.stringify({
      sub: user.id,
      site_id: user.site_id,
      role: user.role,
      jti: randomUUID(),
      iat: now,
      exp: now + 600,
    }),
  ).toString('base64url');
  return `${head}.${body}.${createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url')}`;
}

describe('key rotation without downtime (issue 15)', () => {
  let site: string;
  let adminToken: string;

  it('accepts access tokens signed with JWT_SECRET_PREVIOUS, and refuses any other secret', async () => {
    const previous = 'the-previous-jwt-secret-0123456789abcdef';
    const t = await createTestApp({ jwtSecretsPrevious: [previous] });
    try {
      const user = await makeUser(t, await makeSite(t));
      await api(t.app).as(accessToken(previous, user.user)).get('/users/me').expect(200);
      await api(t.app).as(accessToken(TEST_JWT_SECRET, user.user)).get('/users/me').expect(200);
      await api(t.app)
        .as(accessToken('some-other-secret-0123456789abcdefghij', user.user))
        .get('/users/me')
        .expect(401);
    } finally {
      await t.close();
    }
  });

  describe('SECRETS_KEY', () => {
    let t: TestApp | undefined;

    afterAll(async () => {
      await t?.close();
      // Back to the suite's key, so the files after this one start.
      await rotate(OLD_KEY, NEW_KEY);
    });

    it('reads old secrets under SECRETS_KEY_PREVIOUS, and secrets:rotate re-encrypts them all under the new key', async () => {
      // A site's SMTP password stored under the old key.
      const before = await createTestApp();
      try {
        site = await makeSite(before);
        const admin = await makeUser(before, site, { role: 'admin' });
        adminToken = admin.token;
        await api(before.app)
          .as(adminToken)
          .put(`/admin/site-configs/${site}`, { smtp_password: 'smtp-secret-0042' })
          .expect(200);
      } finally {
        await before.close();
      }
      // Step 1: instances start with the new key and the old one as previous: they start, and read it.
      t = await createTestApp({ secretsKey: NEW_KEY, secretsKeysPrevious: [OLD_KEY] });
      const seen = await api(t.app).as(adminToken).get(`/admin/site-configs/${site}`).expect(200);
      expect(seen.body.smtp_password).toBe('****0042');
      await t.close();
      t = undefined;
      // Step 2: everything is re-encrypted under the new key; a second run changes nothing.
      const first = await rotate(NEW_KEY, OLD_KEY);
      expect(first.stdout).toMatch(/^[1-9]\d* secret\(s\) re-encrypted/);
      expect((await rotate(NEW_KEY, OLD_KEY)).stdout).toMatch(/^0 secret\(s\) re-encrypted/);
      // Step 3: the new key alone now reads every stored secret.
      t = await createTestApp({ secretsKey: NEW_KEY });
      const [row] = await t.db.query<Array<{ smtp_password: string }>>(
        `SELECT smtp_password FROM site_configs WHERE site_id = $1`,
        [site],
      );
      expect(decryptSecret(NEW_KEY, row.smtp_password)).toBe('smtp-secret-0042');
      expect(() => decryptSecret(OLD_KEY, row.smtp_password)).toThrow();
      const after = await api(t.app).as(adminToken).get(`/admin/site-configs/${site}`).expect(200);
      expect(after.body.smtp_password).toBe('****0042');
    });
  });
});
