import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { api } from '../support/api';
import { makeSite, makeUser, type MadeUser, uid } from '../support/factories';
import { dbFingerprint, diffFingerprints, type Fingerprint } from '../support/db-fingerprint';
import {
  breakValue,
  brokenBody,
  type FoundOperation,
  type Hints,
  loadDocument,
  nullBodies,
  operationsOf,
  type Parameter,
  ResponseValidator,
  type Schema,
  valid,
} from '../support/openapi-fuzz';
import { makePublished, raffleBody } from '../support/raffles';
import { type SandboxApp, startSandboxApp } from '../support/sandbox-app';

/**
 * Issue 15: every operation of the committed document, sent generated valid and invalid parameters, headers
 * and bodies, with the operation's own token, none, and a forged one. No answer may be a 5xx, an answer the
 * document does not describe (status, content type, body schema), or — for a refused request — a change
 * to the database. Deterministic: FUZZ_SEED (default below) fixes every generated request; FUZZ_RUNS scales
 * the number of valid and invalid requests per operation.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
const RUNS = Number(process.env.FUZZ_RUNS ?? 5);

const doc = loadDocument();
const OPERATIONS = operationsOf(doc);

interface World {
  siteId: string;
  admin: MadeUser;
  user: MadeUser;
  ids: Record<string, string[]>;
  hints: Hints;
}

interface Request {
  url: string;
  headers: Record<string, string>;
  body?: unknown;
  why?: string;
}

/**
 * Tables a refused request changes by design (docs/DECISIONS.md, "Contract fuzzing"); every other table of
 * `public`, and the job queue, must be exactly as it was after any 4xx.
 */
const CHANGES_ON_REFUSAL: { all: string[]; byOperation: Record<string, string[]> } = {
  // DESIGN §6: an answer is stored under its Idempotency-Key once the request passed validation, whatever
  // its status (4xx included), so a retry with the same key replays it.
  all: ['idempotency_keys'],
  byOperation: {
    // DESIGN §3: a wrong password counts towards the lock (users.failed_login_attempts) and is logged.
    login: ['users', 'activity_logs'],
  },
};

/** Which of the world's ids a path's `{param}` names, by the route's resource. */
function pathIds(w: World, path: string, param: string): string[] {
  if (param === 'name') return ['renewals', 'expiries', 'reconciliation', 'reminders'];
  if (param === 'site_id') return [w.siteId];
  if (param === 'item_id') return w.ids.itemIds;
  if (param === 'winner_id') return [];
  const table: Array<[RegExp, string]> = [
    [/raffles/, 'raffleIds'],
    [/discount-codes/, 'codeIds'],
    [/subscription-tiers/, 'tierIds'],
    [/subscriptions/, 'subscriptionIds'],
    [/payments/, 'paymentIds'],
    [/merch\/products/, 'productIds'],
    [/merch\/orders/, 'merchOrderIds'],
    [/users/, 'userIds'],
    [/inbound-events/, 'inboundIds'],
  ];
  return w.ids[table.find(([re]) => re.test(path))?.[1] ?? ''] ?? [];
}

const HOSTILE_IDS = [
  'not-an-id',
  '00000000-0000-0000-0000-000000000000',
  '..%2F..%2Fetc',
  'x'.repeat(300),
  '%00',
  "1' OR '1'='1",
];

function paramArb(w: World, found: FoundOperation, p: Parameter): fc.Arbitrary<unknown> {
  if (p.in === 'path') {
    const real = pathIds(w, found.path, p.name);
    const random = fc.oneof(fc.uuid({ version: 4 }), fc.stringMatching(/^[a-z0-9-]{1,20}$/));
    return real.length
      ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...real) }, { weight: 1, arbitrary: random })
      : random;
  }
  if (p.name === 'Idempotency-Key') return fc.uuid({ version: 4 });
  // A header carries visible ASCII only (the HTTP client refuses anything else before sending).
  const value =
    p.in === 'header'
      ? fc.oneof(fc.constantFrom(w.siteId), fc.stringMatching(/^[!-~]{1,40}$/))
      : valid(doc, p.schema ?? { type: 'string' }, w.hints, p.name);
  return p.required ? value : fc.option(value, { nil: undefined, freq: 2 });
}

const text = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

/** Parameter values and a body, drawn from their schemas, and a number that picks what to break. */
function drawArb(w: World, found: FoundOperation): fc.Arbitrary<[Record<string, unknown>, unknown, number]> {
  const params = found.op.parameters ?? [];
  const bodySchema = found.op.requestBody?.content['application/json']?.schema;
  const values = fc.record(
    Object.fromEntries(params.map((p) => [`${p.in}:${p.name}`, paramArb(w, found, p)])),
  );
  const body = bodySchema ? valid(doc, bodySchema, w.hints) : fc.constant(undefined);
  return fc.tuple(values, body, fc.nat());
}

function build(found: FoundOperation, values: Record<string, unknown>, body: unknown): Request {
  let url = found.path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  for (const p of found.op.parameters ?? []) {
    const value = values[`${p.in}:${p.name}`];
    if (value === undefined) continue;
    if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(text(value)));
    else if (p.in === 'query')
      for (const one of Array.isArray(value) ? value : [value]) query.append(p.name, text(one));
    else headers[p.name] = text(value);
  }
  return { url: query.size ? `${url}?${query.toString()}` : url, headers, body };
}

/** The same request with exactly one rule broken: a body field, a parameter, a header or the path id. */
function breakRequest(
  found: FoundOperation,
  base: Request,
  values: Record<string, unknown>,
  pick: number,
): Request {
  const params = found.op.parameters ?? [];
  const bodySchema = found.op.requestBody?.content['application/json']?.schema;
  const targets: string[] = [];
  if (bodySchema) targets.push('body', 'body');
  // Headers are text whatever the schema says, so only the Idempotency-Key's length can be broken.
  for (const p of params)
    if (p.in !== 'header' || p.name === 'Idempotency-Key') targets.push(`${p.in}:${p.name}`);
  if (!targets.length) return { ...base, why: 'nothing to break' };
  const target = targets[pick % targets.length];
  const next = Math.floor(pick / targets.length);
  if (target === 'body') {
    const broken = brokenBody(doc, bodySchema as Schema, base.body, next);
    return { ...base, body: broken.value, why: `body: ${broken.why}` };
  }
  const p = params.find((x) => `${x.in}:${x.name}` === target) as Parameter;
  if (p.in === 'path') {
    const id = HOSTILE_IDS[next % HOSTILE_IDS.length];
    return {
      ...build(found, { ...values, [target]: id }, base.body),
      why: `path ${p.name}: ${id.slice(0, 20)}`,
    };
  }
  if (p.name === 'Idempotency-Key') {
    const key = next % 2 ? 'k'.repeat(256) : '';
    return {
      ...build(found, { ...values, [target]: key }, base.body),
      headers: { ...base.headers, [p.name]: key },
      why: `Idempotency-Key of ${key.length} characters`,
    };
  }
  const broken = breakValue(doc, p.schema ?? { type: 'string' }, next, true);
  if (!broken) return { ...base, why: 'nothing to break' };
  return {
    ...build(found, { ...values, [target]: broken.value }, base.body),
    why: `${p.in} ${p.name}: ${broken.why}`,
  };
}

describe('contract fuzzing: every operation of openapi.json, valid and invalid requests', () => {
  let s: SandboxApp;
  let w: World;
  let validator: ResponseValidator;
  let before: Fingerprint;

  beforeAll(async () => {
    s = await startSandboxApp({ mailTransport: 'log' });
    validator = new ResponseValidator(doc);
    w = await seedWorld(s);
    before = await dbFingerprint(s.db);
  }, 120_000);
  afterAll(async () => {
    await s.close();
  });

  it('the database fingerprint sees an insert, a write of a row as it was, and a delete, not a rolled-back write', async () => {
    const print = () => dbFingerprint(s.db);
    const start = await print();
    const [{ id }] = await s.db.query<Array<{ id: string }>>(
      `INSERT INTO tags (site_id, name, slug) VALUES ($1, 'probe', $2) RETURNING id`,
      [w.siteId, `probe-${uid()}`],
    );
    const inserted = await print();
    await s.db.query(`UPDATE tags SET name = name WHERE id = $1`, [id]);
    const rewritten = await print();
    await s.db
      .transaction(async (m) => {
        await m.query(`UPDATE tags SET name = 'changed' WHERE id = $1`, [id]);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    const rolledBack = await print();
    await s.db.query(`DELETE FROM tags WHERE id = $1`, [id]);
    const deleted = await print();
    expect(diffFingerprints(start, inserted)).toEqual(['tags']);
    expect(diffFingerprints(inserted, rewritten)).toEqual(['tags']);
    expect(diffFingerprints(rewritten, rolledBack)).toEqual([]);
    expect(diffFingerprints(rolledBack, deleted)).toEqual(['tags']);
    before = await print();
  });

  OPERATIONS.forEach((found, index) => {
    const { method, path, op } = found;
    it(`${method.toUpperCase()} ${path} (${op.operationId}) never answers 5xx, off-contract, or changes data when refusing`, async () => {
      const failures: string[] = [];
      const secured = (op.security ?? []).length > 0;
      const admin =
        /^\/(api\/)?admin\//.test(path) ||
        ['create', 'bulkGenerate', 'update', 'remove', 'getWithClaims'].includes(op.operationId);
      const token = !secured ? undefined : admin ? w.admin.token : w.user.token;
      const samples = fc.sample(drawArb(w, found), { seed: SEED + index, numRuns: RUNS * 2 });
      const cases: Array<{ req: Request; caller: string; token?: string; expect?: 'refused' }> = [];
      samples.forEach(([values, body, pick], i) => {
        const req = build(found, values, body);
        if (i < RUNS) cases.push({ req, caller: secured ? (admin ? 'admin' : 'user') : 'anonymous', token });
        else
          cases.push({
            req: breakRequest(found, req, values, pick),
            caller: secured ? (admin ? 'admin' : 'user') : 'anonymous',
            token,
            expect: 'refused',
          });
      });
      const bodySchema = op.requestBody?.content['application/json']?.schema;
      const caller = secured ? (admin ? 'admin' : 'user') : 'anonymous';
      for (const n of bodySchema ? nullBodies(doc, bodySchema, cases[0].req.body) : []) {
        // A key of its own: the first request's key with another body would be refused as a reuse.
        const headers: Record<string, string> = { ...cases[0].req.headers };
        if ('Idempotency-Key' in headers) headers['Idempotency-Key'] = randomUUID();
        cases.push({
          req: { ...cases[0].req, headers, body: n.value, why: n.why },
          caller,
          token,
          expect: n.nullable ? undefined : 'refused',
        });
      }
      if (secured) {
        cases.push({ req: cases[0].req, caller: 'no token', expect: 'refused' });
        cases.push({ req: cases[0].req, caller: 'forged token', token: forged(), expect: 'refused' });
      }
      for (const c of cases) {
        if (c.req.why === 'nothing to break') continue;
        let call = api(s.app).as(c.token)[method](c.req.url);
        for (const [name, value] of Object.entries(c.req.headers)) call = call.set(name, value);
        if (c.req.body !== undefined) {
          call =
            typeof c.req.body === 'string'
              ? call.set('Content-Type', 'application/json').send(c.req.body)
              : call.send(c.req.body as object);
        }
        const res = await call;
        const what = `${method.toUpperCase()} ${c.req.url.slice(0, 120)} as ${c.caller}${c.req.why ? ` [${c.req.why}]` : ''} body ${(JSON.stringify(c.req.body) as string | undefined)?.slice(0, 200)} → ${res.status}`;
        const problems: string[] = [];
        if (res.status >= 500) problems.push(`a ${res.status}: ${res.text.slice(0, 300)}`);
        problems.push(...validator.check(found, res.status, res.headers['content-type'], res.body));
        if (c.expect === 'refused' && res.status < 400) problems.push('a broken request was accepted');
        // A GET answered below 400 is taken at HTTP's word (a safe method) and not fingerprinted: a third of
        // the run's time. Were one to write, the next refusal's comparison would show it.
        if (res.status >= 400 || method !== 'get') {
          const after = await dbFingerprint(s.db);
          if (res.status >= 400) {
            const changed = diffFingerprints(before, after, [
              ...CHANGES_ON_REFUSAL.all,
              ...(CHANGES_ON_REFUSAL.byOperation[op.operationId] ?? []),
            ]);
            if (changed.length) problems.push(`the refusal changed the database: ${changed.join(', ')}`);
          }
          before = after;
        }
        if (problems.length) failures.push(`${what}\n    ${problems.join('\n    ')}`);
      }
      expect(failures).toEqual([]);
    });
  });
});

function forged(): string {
  const part = (o: object): string => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: 'someone', role: 'superadmin', site_id: 'x' })}.${Buffer.from(uid()).toString('base64url')}`;
}

/** A small site with an admin, a user, and one of each record the operations address. */
async function seedWorld(s: SandboxApp): Promise<World> {
  const siteId = await makeSite(s);
  const admin = await makeUser(s, siteId, { role: 'admin' });
  const user = await makeUser(s, siteId);
  const as = (t: string) => api(s.app).as(t);
  const published = await makePublished(s, admin.token, {
    allow_free_entries: true,
    points_enabled: true,
    points_required: 10,
  });
  const draft = (await as(admin.token).post('/admin/raffles', raffleBody()).expect(201)).body as {
    id: string;
    item_id: string;
  };
  const tier = (
    await as(admin.token)
      .post('/admin/subscription-tiers', {
        name: `gold-${uid()}`,
        amount_cents: 999,
        currency: 'GBP',
        entry_credits_per_period: 5,
      })
      .expect(201)
  ).body as { id: string };
  const brand = (
    await as(admin.token)
      .post('/admin/discount-brands', { name: `Brand ${uid()}` })
      .expect(201)
  ).body as { id: string };
  const tag = (
    await as(admin.token)
      .post('/admin/tags', { name: `Tag ${uid()}` })
      .expect(201)
  ).body as { id: string };
  const code = (
    await as(admin.token)
      .post('/discount-codes', {
        code: `SAVE${uid().toUpperCase()}`,
        discount_brand_id: brand.id,
        points_required: 10,
        title: 'Ten off',
        tag_ids: [tag.id],
      })
      .expect(201)
  ).body as { id: string };
  const product = (
    await as(admin.token)
      .post('/api/admin/merch/products', {
        name: 'Tee',
        sku: 'GLOBAL-TEE-GIL-64000',
        amount_cents: 1500,
        currency: 'GBP',
        sizing: 'fillPrintArea',
        attributes: { size: 'm' },
        assets: { default: 'https://cdn.example.com/tee.png' },
      })
      .expect(201)
  ).body as { id: string };
  await as(admin.token)
    .post('/admin/rewards/adjust', { user_id: user.user.id, amount: 500, reason: 'Fuzz world' })
    .expect(201);
  const subscription = (await as(user.token).post('/subscriptions', { tier_id: tier.id }).expect(201))
    .body as { subscription: { id: string } };
  const payment = (
    await as(user.token)
      .post('/payments/create', { amount_cents: 500, currency: 'GBP', payment_method: 'card' })
      .expect(200)
  ).body as { id: string };
  const ids = {
    raffleIds: [published.id, draft.id],
    itemIds: [published.item_id, draft.item_id],
    codeIds: [code.id],
    tierIds: [tier.id],
    subscriptionIds: [subscription.subscription.id],
    paymentIds: [payment.id],
    productIds: [product.id],
    merchOrderIds: [],
    userIds: [user.user.id, admin.user.id],
    inboundIds: [],
  };
  const hints: Hints = {
    site_id: [siteId],
    user_id: [user.user.id],
    raffle_id: [published.id],
    item_id: [published.item_id],
    tier_id: [tier.id],
    new_tier: [tier.id],
    subscription_id: [subscription.subscription.id],
    discount_brand_id: [brand.id],
    merch_product_id: [product.id],
    email: [user.email],
    currency: ['GBP'],
  };
  return { siteId, admin, user, ids, hints };
}
