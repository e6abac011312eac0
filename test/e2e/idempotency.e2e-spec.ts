import { requestHash } from '#app/common/idempotency/idempotency.rules.js';
import { PointsService } from '#app/modules/rewards/points.service.js';
import { api } from '../support/api';
import { createTestApp, type TestApp } from '../support/app';
import { makeSite, makeUser, type MadeUser, uid } from '../support/factories';
import { makePublished } from '../support/raffles';

const ADJUST = '/admin/rewards/adjust';

describe('Idempotency-Key (through POST /admin/rewards/adjust)', () => {
  let t: TestApp;
  let site: string;
  let admin: MadeUser;

  beforeAll(async () => {
    t = await createTestApp();
    site = await makeSite(t);
    admin = await makeUser(t, site, { role: 'admin' });
  });
  afterAll(async () => {
    await t.close();
  });

  const adjust = (body: object, key?: string, as: MadeUser = admin) => {
    const req = api(t.app).as(as.token).post(ADJUST, body);
    return key === undefined ? req : req.set('Idempotency-Key', key);
  };
  const balance = (userId: string) => t.app.get(PointsService).balanceOf(userId);
  const entries = async (userId: string): Promise<number> => {
    const [row] = await t.db.query(`SELECT count(*)::int AS n FROM point_transactions WHERE user_id = $1`, [
      userId,
    ]);
    return (row as { n: number }).n;
  };
  const keyRow = async (key: string): Promise<Record<string, unknown> | undefined> => {
    const rows: Array<Record<string, unknown>> = await t.db.query(
      `SELECT scope, state, response_status FROM idempotency_keys WHERE key = $1`,
      [key],
    );
    return rows[0];
  };

  it('replays the first answer to a retry with the same key and body, and applies once', async () => {
    const u = await makeUser(t, site);
    const key = `key-${uid()}`;
    const body = { user_id: u.user.id, amount: 40, reason: 'Goodwill' };
    const first = await adjust(body, key).expect(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await adjust(body, key).expect(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.text).toBe(first.text);
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(await balance(u.user.id)).toBe(40);
    expect(await entries(u.user.id)).toBe(1);
    expect(await keyRow(key)).toEqual({
      scope: `POST /admin/rewards/adjust user:${admin.user.id}`,
      state: 'completed',
      response_status: 201,
    });
  });

  it('treats the same body with its fields in another order as the same request', async () => {
    const u = await makeUser(t, site);
    const key = `key-${uid()}`;
    await adjust({ user_id: u.user.id, amount: 5, reason: 'x' }, key).expect(201);
    const again = await adjust({ reason: 'x', amount: 5, user_id: u.user.id }, key).expect(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await balance(u.user.id)).toBe(5);
  });

  it('refuses the same key with another body (422 IDEMPOTENCY_KEY_REUSED), changing nothing', async () => {
    const u = await makeUser(t, site);
    const key = `key-${uid()}`;
    await adjust({ user_id: u.user.id, amount: 10, reason: 'x' }, key).expect(201);
    const reused = await adjust({ user_id: u.user.id, amount: 99, reason: 'x' }, key).expect(422);
    expect(reused.body).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(reused.headers['content-type']).toContain('application/problem+json');
    expect(await balance(u.user.id)).toBe(10);
  });

  it('stores an error answer too and replays it, even after the state changed', async () => {
    const u = await makeUser(t, site);
    const key = `key-${uid()}`;
    const body = { user_id: u.user.id, amount: -50, reason: 'Correction' };
    const first = await adjust(body, key).expect(422);
    expect(first.body.code).toBe('INSUFFICIENT_POINTS');
    await adjust({ user_id: u.user.id, amount: 100, reason: 'Top-up' }).expect(201);
    const again = await adjust(body, key).expect(422);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toContain('application/problem+json');
    expect(again.body).toEqual(first.body);
    expect(await balance(u.user.id)).toBe(100);
  });

  it('keeps no answer for a request that failed validation, so the corrected one can use the key', async () => {
    const u = await makeUser(t, site);
    const key = `key-${uid()}`;
    await adjust({ user_id: u.user.id, amount: 0, reason: 'x' }, key).expect(400);
    expect(await keyRow(key)).toBeUndefined();
    const fixed = await adjust({ user_id: u.user.id, amount: 3, reason: 'x' }, key).expect(201);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();
    expect(await balance(u.user.id)).toBe(3);
  });

  it('keeps no answer to a server fault, so a retry after the fault applies', async () => {
    const u = await makeUser(t, site);
    const key = `key-${uid()}`;
    const reason = `boom-${uid()}`;
    const fn = `fail_${uid()}`;
    // A real database fault for this one request: the insert of its ledger entry fails.
    await t.db.query(`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.reason = '${reason}' THEN RAISE EXCEPTION 'disk on fire'; END IF; RETURN NEW; END $$`);
    await t.db.query(
      `CREATE TRIGGER ${fn} BEFORE INSERT ON point_transactions FOR EACH ROW EXECUTE FUNCTION ${fn}()`,
    );
    const body = { user_id: u.user.id, amount: 8, reason };
    try {
      const fault = await adjust(body, key).expect(500);
      expect(JSON.stringify(fault.body)).not.toContain('disk on fire');
      expect(await keyRow(key)).toBeUndefined();
    } finally {
      await t.db.query(`DROP TRIGGER ${fn} ON point_transactions`);
      await t.db.query(`DROP FUNCTION ${fn}()`);
    }
    const retry = await adjust(body, key).expect(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(await balance(u.user.id)).toBe(8);
  });

  it('lets ten identical requests racing with one key apply exactly once; the rest wait (409) or replay', async () => {
    const u = await makeUser(t, site);
    const key = `key-${uid()}`;
    const body = { user_id: u.user.id, amount: 7, reason: 'Race' };
    const results = await Promise.all(Array.from({ length: 10 }, () => adjust(body, key)));
    const statuses = results.map((r) => r.status);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    const fresh = results.filter((r) => r.status === 201 && r.headers['idempotent-replayed'] !== 'true');
    expect(fresh).toHaveLength(1);
    for (const r of results.filter((x) => x.status === 201)) expect(r.text).toBe(fresh[0].text);
    for (const r of results.filter((x) => x.status === 409)) {
      expect(r.body.code).toBe('IDEMPOTENCY_KEY_IN_USE');
      expect(r.headers['retry-after']).toBe('1');
    }
    expect(await balance(u.user.id)).toBe(7);
    expect(await entries(u.user.id)).toBe(1);
  });

  it('answers 409 IDEMPOTENCY_KEY_IN_USE while the first request is still running', async () => {
    const u = await makeUser(t, site);
    const key = `key-${uid()}`;
    const body = { user_id: u.user.id, amount: 2, reason: 'x' };
    // The state a request leaves while its handler runs: claimed, not finished.
    await t.db.query(
      `INSERT INTO idempotency_keys (scope, key, request_hash, state, owner, expires_at)
       VALUES ($1, $2, $3, 'in_progress', gen_random_uuid(), now() + interval '5 minutes')`,
      [`POST ${ADJUST} user:${admin.user.id}`, key, requestHash({ path: ADJUST, query: {}, body })],
    );
    const busy = await adjust(body, key).expect(409);
    expect(busy.body.code).toBe('IDEMPOTENCY_KEY_IN_USE');
    expect(await balance(u.user.id)).toBe(0);
  });

  it('scopes keys to the caller: two admins may use the same key', async () => {
    const u = await makeUser(t, site);
    const other = await makeUser(t, site, { role: 'admin' });
    const key = `shared-${uid()}`;
    const body = { user_id: u.user.id, amount: 4, reason: 'x' };
    await adjust(body, key).expect(201);
    const second = await adjust(body, key, other).expect(201);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(await balance(u.user.id)).toBe(8);
  });

  it('treats an expired key as new, and the cleanup job purges expired keys', async () => {
    const u = await makeUser(t, site);
    const key = `key-${uid()}`;
    await adjust({ user_id: u.user.id, amount: 1, reason: 'x' }, key).expect(201);
    await t.db.query(`UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = $1`, [
      key,
    ]);
    const fresh = await adjust({ user_id: u.user.id, amount: 2, reason: 'y' }, key).expect(201);
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
    expect(await balance(u.user.id)).toBe(3);

    const live = `key-${uid()}`;
    await adjust({ user_id: u.user.id, amount: 1, reason: 'z' }, live).expect(201);
    await t.db.query(`UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = $1`, [
      key,
    ]);
    await t.jobs.enqueue('idempotency.cleanup', {});
    await t.drain();
    expect(await keyRow(key)).toBeUndefined();
    expect(await keyRow(live)).toBeDefined();
    const [schedule] = await t.db.query(
      `SELECT cron FROM pgboss.schedule WHERE name = 'idempotency.cleanup'`,
    );
    expect(schedule).toEqual({ cron: '17 * * * *' });
  });

  it('acts on every request sent without a key', async () => {
    const u = await makeUser(t, site);
    const body = { user_id: u.user.id, amount: 6, reason: 'x' };
    await adjust(body).expect(201);
    await adjust(body).expect(201);
    expect(await balance(u.user.id)).toBe(12);
  });

  it('refuses an empty or overlong key (400) and accepts 255 characters', async () => {
    const u = await makeUser(t, site);
    const body = { user_id: u.user.id, amount: 1, reason: 'x' };
    const empty = await adjust(body, '').expect(400);
    expect(empty.body.errors).toEqual([{ field: 'Idempotency-Key', message: 'must be 1 to 255 characters' }]);
    await adjust(body, 'k'.repeat(256)).expect(400);
    await adjust(body, `${uid()}${'k'.repeat(245)}`).expect(201);
    expect(await balance(u.user.id)).toBe(1);
  });

  it('replays a retried postal entry (an entries endpoint too) instead of granting its tickets twice', async () => {
    const raffle = await makePublished(t, admin.token);
    const entrant = await makeUser(t, site);
    const postal = (body: object) =>
      api(t.app)
        .as(admin.token)
        .post(`/admin/raffles/${raffle.id}/entries`, body)
        .set('Idempotency-Key', `postal-${raffle.id}`);
    const body = { user_id: entrant.user.id, quantity: 1, method: 'postal', note: 'Postcard #1' };
    const first = await postal(body).expect(201);
    // The admin's client lost the answer and sends the same request again.
    const retry = await postal(body).expect(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    const other = await postal({ ...body, quantity: 2 }).expect(422);
    expect(other.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const rows = await t.db.query(`SELECT id FROM raffle_entries WHERE raffle_id = $1`, [raffle.id]);
    expect(rows).toEqual([{ id: first.body.id }]);
  });

  it('takes the header on every route DESIGN §6 names: payments, orders, entries and claims', async () => {
    const doc = await api(t.app).get('/docs-json').expect(200);
    const takesKey = (path: string): boolean =>
      (doc.body.paths[path].post.parameters as Array<{ name: string }>).some(
        (p) => p.name === 'Idempotency-Key',
      );
    const named = [
      '/payments/create',
      '/gatewayone/create-order',
      '/gatewaytwo/create-order',
      '/raffles/{id}/entries',
      '/admin/raffles/{id}/entries',
      '/discount-codes/{id}/claim',
      '/gaming/spin/claim',
      '/raffles/{id}/winners/{winner_id}/claim',
    ];
    expect(named.filter((path) => !takesKey(path))).toEqual([]);
  });

  it('documents the header and its 409 and 422 answers on decorated routes', async () => {
    const doc = await api(t.app).get('/docs-json').expect(200);
    const op = doc.body.paths[ADJUST].post;
    expect(op.parameters).toContainEqual(
      expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false }),
    );
    expect(op.responses['409'].description).toContain('IDEMPOTENCY_KEY_IN_USE');
    expect(op.responses['422'].description).toContain('IDEMPOTENCY_KEY_REUSED');
    expect(op.responses['422'].description).toContain('INSUFFICIENT_POINTS');
  });
});
