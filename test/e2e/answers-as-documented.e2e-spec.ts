import type { Response } from 'supertest';
import { api } from '../support/api';
import { makeSite, makeUser, type MadeUser, uid } from '../support/factories';
import { activeMember, subscribe, tierOn, withRoot, type MembershipWorld } from '../support/memberships';
import {
  flatten,
  loadDocument,
  type Method,
  type Operation,
  ResponseValidator,
  type Schema,
} from '../support/openapi-fuzz';
import { confirm, paidOrderOf, raffleOn, startPaymentsWorld, stopPaymentsWorld } from '../support/payments';
import { linkToken } from '../support/smtp-sink';

/**
 * What the endpoints really answer, held against the committed openapi.json where the fuzzer does not reach:
 * answers that need a world (a drawn raffle, a paid membership, a member's whole record) and statuses every
 * route can give (another site, two sites, a body too large). Each check lists the ways an answer is off its
 * documented operation: status, content type, body schema, and the error `code` among those documented for
 * its status (which contract-fuzz does not look at).
 */
const doc = loadDocument();
const validator = new ResponseValidator(doc);

/** The documented operation, when there is one (an index of the document may name none). */
const operationOf = (method: Method, path: string): Operation | undefined =>
  (doc.paths as Partial<Record<string, Partial<Record<Method, Operation>>>>)[path]?.[method];

function offContract(method: Method, path: string, res: Response): string[] {
  const op = operationOf(method, path);
  if (!op) return [`${method} ${path} is not in the document`];
  const problems = validator
    .check({ method, path, op }, res.status, res.headers['content-type'] as string | undefined, res.body)
    .map((p) => `${method.toUpperCase()} ${path} → ${res.status}: ${p}`);
  const documented = op.responses[String(res.status)] as
    | { content?: Record<string, { examples?: Record<string, { value: Record<string, unknown> }> }> }
    | undefined;
  if (res.status >= 400 && documented) {
    const media = Object.values(documented.content ?? {}).at(0);
    const codes = Object.values(media?.examples ?? {}).map((e) => String(e.value.code ?? e.value.error_code));
    const body = res.body as Record<string, unknown>;
    const code = String(body.code ?? body.error_code);
    if (!codes.includes(code))
      problems.push(
        `${method.toUpperCase()} ${path} → ${res.status} code ${code}: documents only ${codes.join(', ')}`,
      );
  }
  return problems;
}

/**
 * Keys an answer carries that its documented schema does not declare (a schema without `properties` and
 * without `additionalProperties` is what generators turn into an empty type: `Record<string, never>`).
 */
function undocumentedKeys(schema: Schema | undefined, value: unknown, at = 'body'): string[] {
  if (!schema || value === null || value === undefined) return [];
  const s = flatten(doc, schema);
  const anyOf = s.anyOf ?? s.oneOf;
  if (anyOf) return anyOf.flatMap((x) => undocumentedKeys(x, value, at)).slice(0, 20);
  if (Array.isArray(value))
    return s.items ? value.flatMap((v, i) => undocumentedKeys(s.items, v, `${at}[${i}]`)).slice(0, 20) : [];
  if (typeof value !== 'object') return [];
  if (s.additionalProperties) return [];
  const props = s.properties ?? {};
  const out: string[] = [];
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (!(k in props)) out.push(`${at}.${k}`);
    else out.push(...undocumentedKeys(props[k], v, `${at}.${k}`));
  }
  return out;
}

function successSchema(method: Method, path: string, status: number): Schema | undefined {
  const responses: Partial<Operation['responses']> = operationOf(method, path)?.responses ?? {};
  return Object.values(responses[String(status)]?.content ?? {}).at(0)?.schema;
}

function collapse(keys: string[]): string[] {
  // body.payment_transactions[1].subscription.tier → body.payment_transactions[].subscription.tier
  return [...new Set(keys.map((k) => k.replace(/\[\d+\]/g, '[]')))].sort();
}

describe('what the endpoints answer, as the document says', () => {
  let w: MembershipWorld;
  let other: string;
  let user: MadeUser;
  let brandId: string;
  let codeId: string;

  beforeAll(async () => {
    w = await withRoot(await startPaymentsWorld());
    other = await makeSite(w.t);
    user = await makeUser(w.t, w.site);
    const as = api(w.t.app).as(w.admin.token);
    brandId = (await as.post('/admin/discount-brands', { name: `Brand ${uid()}` }).expect(201)).body.id;
    codeId = (
      await as
        .post('/discount-codes', {
          code: `SAVE${uid().toUpperCase()}`,
          discount_brand_id: brandId,
          points_required: 0,
          title: 'Free',
        })
        .expect(201)
    ).body.id;
  }, 120_000);
  afterAll(async () => {
    await stopPaymentsWorld(w);
  });

  describe('statuses and codes a route answers that its operation does not list', () => {
    it('documents the 403 public reads answer a member naming another site (discount codes, brands, tags)', async () => {
      const problems = [
        ...offContract(
          'get',
          '/discount-codes',
          await api(w.t.app).as(user.token).get(`/discount-codes?site_id=${other}`),
        ),
        ...offContract(
          'get',
          '/discount-codes/{id}',
          await api(w.t.app).as(user.token).get(`/discount-codes/${codeId}`).set('X-Site-Id', other),
        ),
        ...offContract(
          'get',
          '/discount-brands',
          await api(w.t.app).as(user.token).get(`/discount-brands?site_id=${other}`),
        ),
        ...offContract('get', '/tags', await api(w.t.app).as(user.token).get(`/tags?site_id=${other}`)),
      ];
      expect(problems).toEqual([]);
    });

    it('documents the 400 every route answers a request naming two sites (endpoints 9 and 11)', async () => {
      const tier = await tierOn(w);
      const started = await subscribe(w, user, tier.id);
      const problems = [
        ...offContract(
          'get',
          '/subscriptions/{id}',
          await api(w.t.app)
            .as(user.token)
            .get(`/subscriptions/${started.subscription.id}?site_id=${w.site}`)
            .set('X-Site-Id', other),
        ),
        ...offContract(
          'get',
          '/discount-codes/{id}/with-claims',
          await api(w.t.app)
            .as(w.admin.token)
            .get(`/discount-codes/${codeId}/with-claims?site_id=${w.site}`)
            .set('X-Site-Id', other),
        ),
      ];
      expect(problems).toEqual([]);
    });

    it('answers a postal entry for an erased member with the documented 404 (ACCOUNT_DELETED only in a race)', async () => {
      const raffle = await raffleOn(w);
      const gone = await makeUser(w.t, w.site);
      await api(w.t.app)
        .as(w.admin.token)
        .delete(`/admin/users/${gone.user.id}`)
        .send({ reason: 'asked' })
        .expect(204);
      const res = await api(w.t.app).as(w.admin.token).post(`/admin/raffles/${raffle.id}/entries`, {
        user_id: gone.user.id,
        quantity: 1,
        method: 'postal',
        note: 'card',
      });
      expect(offContract('post', '/admin/raffles/{id}/entries', res)).toEqual([]);
      expect([res.status, res.body.code]).toEqual([404, 'NOT_FOUND']);
    });

    it('documents the 413 a body over 1 MB is answered with, in the order endpoints’ shape too', async () => {
      const big = 'x'.repeat(1_100_000);
      const problems = [
        ...offContract(
          'post',
          '/payments/create',
          await api(w.t.app).as(user.token).post('/payments/create', {
            amount_cents: 500,
            currency: 'GBP',
            payment_method: 'card',
            description: big,
          }),
        ),
        ...offContract(
          'post',
          '/gatewayone/create-order',
          await api(w.t.app).post('/gatewayone/create-order', { site_id: w.site, description: big }),
        ),
      ];
      expect(problems).toEqual([]);
    });
  });

  describe('success bodies the fuzzer never reaches', () => {
    it('endpoint 1: password-set confirm', async () => {
      const u = await makeUser(w.t, w.site);
      await api(w.t.app).post('/auth/password-reset', { email: u.email, site_id: w.site }).expect(200);
      await w.t.drain();
      const token = linkToken(w.t.smtp.to(u.email)[0], 'reset-password');
      const res = await api(w.t.app).post('/auth/password-set/confirm', {
        token,
        password: 'brand-New-pass-9913',
      });
      expect(offContract('post', '/auth/password-set/confirm', res)).toEqual([]);
      expect(res.status).toBe(200);
    });

    it('endpoints 21 and GET /users/me: the nested Subscription and Raffle of a member with entries, a membership and payments', async () => {
      const tier = await tierOn(w);
      const { member } = await activeMember(w, tier.id);
      const raffle = await raffleOn(w, { points_enabled: true, points_required: 1 });
      const orderId = await paidOrderOf(w, raffle.item_id, 2, member.token);
      await confirm(w, orderId).expect(200);
      await w.t.drain();
      const put = await api(w.t.app)
        .as(member.token)
        .put('/users/profile', { profile: { first_name: 'Sam', city: 'Leeds' } });
      const me = await api(w.t.app).as(member.token).get('/users/me');
      expect([...offContract('put', '/users/profile', put), ...offContract('get', '/users/me', me)]).toEqual(
        [],
      );
      expect(put.status).toBe(200);
      const body = me.body as {
        payment_transactions: Array<{ subscription: Record<string, unknown> | null }>;
        raffle_entries: Array<{ raffle: Record<string, unknown> | null }>;
      };
      // The nested forms are there to be checked, and every key of them is declared (free-form `metadata` holds
      // any, and says so).
      expect(body.payment_transactions.some((p) => p.subscription !== null)).toBe(true);
      expect(body.raffle_entries.some((e) => e.raffle !== null)).toBe(true);
      expect(collapse(undocumentedKeys(successSchema('get', '/users/me', 200), me.body))).toEqual([]);
    });

    it('endpoints 13 and 14: upgrade and cancel answers', async () => {
      const low = await tierOn(w, { amount_cents: 500 });
      const high = await tierOn(w, { amount_cents: 1500, entry_credits_per_period: 20 });
      const { id } = await activeMember(w, low.id);
      const up = await api(w.t.app)
        .as(w.admin.token)
        .post('/admin/subscriptions/upgrade', { subscription_id: id, new_tier: high.name, reason: 'asked' });
      const down = await api(w.t.app)
        .as(w.admin.token)
        .post('/admin/subscriptions/upgrade', { subscription_id: id, new_tier: low.name, reason: 'asked' });
      const cancel = await api(w.t.app)
        .as(w.admin.token)
        .post('/admin/subscriptions/cancel', { subscription_id: id, reason: 'asked' });
      const again = await api(w.t.app)
        .as(w.admin.token)
        .post('/admin/subscriptions/cancel', { subscription_id: id, reason: 'asked', immediate: true });
      expect([
        ...offContract('post', '/admin/subscriptions/upgrade', up),
        ...offContract('post', '/admin/subscriptions/upgrade', down),
        ...offContract('post', '/admin/subscriptions/cancel', cancel),
        ...offContract('post', '/admin/subscriptions/cancel', again),
      ]).toEqual([]);
      expect([up.status, down.status, cancel.status, again.status]).toEqual([200, 422, 200, 409]);
    });

    it('endpoint 17 for a drawn raffle, with its winners', async () => {
      const raffle = await raffleOn(w);
      const as = api(w.t.app).as(w.admin.token);
      await as
        .post(`/admin/raffles/${raffle.id}/entries`, {
          user_id: user.user.id,
          quantity: 3,
          method: 'postal',
          note: 'card',
        })
        .expect(201);
      await as.post(`/admin/raffles/${raffle.id}/close`).expect(200);
      const draw = await as.post(`/admin/raffles/${raffle.id}/draw`, { winners: 1 });
      const item = await api(w.t.app).get(`/raffles/item/${raffle.item_id}?site_id=${w.site}`);
      const winners = await api(w.t.app).get(`/raffles/${raffle.id}/winners`);
      const proof = await api(w.t.app).get(`/raffles/${raffle.id}/draw-proof`);
      const winnerId = (draw.body as { winners?: Array<{ id: string }> }).winners?.at(0)?.id;
      const claim = await api(w.t.app).as(user.token).post(`/raffles/${raffle.id}/winners/${winnerId}/claim`);
      expect([
        ...offContract('post', '/admin/raffles/{id}/draw', draw),
        ...offContract('get', '/raffles/item/{item_id}', item),
        ...offContract('get', '/raffles/{id}/winners', winners),
        ...offContract('get', '/raffles/{id}/draw-proof', proof),
        ...offContract('post', '/raffles/{id}/winners/{winner_id}/claim', claim),
      ]).toEqual([]);
      expect([draw.status, item.status, winners.status, proof.status, claim.status]).toEqual([
        201, 200, 200, 200, 201,
      ]);
    });

    it('endpoint 20: replaying a form submission, twice', async () => {
      const body = {
        triggerType: 'form_submission',
        payload: {
          id: `sub-${uid()}`,
          name: 'Join',
          siteId: w.site,
          formId: 'f',
          formElementId: 'fe',
          pageId: 'p',
          publishedPath: '/join',
          submittedAt: '2026-01-15T10:30:00.000Z',
          data: { Email: `cms-${uid()}@example.com`, 'First Name': 'Sam' },
          schema: [
            { fieldElementId: 'e1', fieldName: 'Email', fieldType: 'email' },
            { fieldElementId: 'e2', fieldName: 'First Name', fieldType: 'plain' },
          ],
        },
      };
      const first = await api(w.t.app).as(w.admin.token).post('/admin/cms/replay-submission', body);
      const second = await api(w.t.app).as(w.admin.token).post('/admin/cms/replay-submission', body);
      expect([
        ...offContract('post', '/admin/cms/replay-submission', first),
        ...offContract('post', '/admin/cms/replay-submission', second),
      ]).toEqual([]);
      expect([first.status, second.status]).toEqual([200, 200]);
    });

    it('declares every key the answers carry (spec endpoints and some of §10)', async () => {
      const raffle = await raffleOn(w, { points_enabled: true, points_required: 1 });
      const buyer = await makeUser(w.t, w.site);
      const orderId = await paidOrderOf(w, raffle.item_id, 1, buyer.token);
      const calls: Array<[Method, string, Response]> = [];
      const call = async (method: Method, path: string, res: Promise<Response> | Response) =>
        calls.push([method, path, await res]);
      const as = (token?: string) => api(w.t.app).as(token);
      await call(
        'post',
        '/payments/create',
        as(buyer.token).post('/payments/create', {
          amount_cents: 500,
          currency: 'GBP',
          payment_method: 'card',
        }),
      );
      await call(
        'post',
        '/gatewayone/create-order',
        as(buyer.token).post('/gatewayone/create-order', {
          item_id: raffle.item_id,
          site_id: w.site,
          quantity: 1,
        }),
      );
      await call('post', '/gatewayone/create-order', confirm(w, orderId));
      await call(
        'post',
        '/gatewaytwo/create-order',
        as(buyer.token).post('/gatewaytwo/create-order', {
          item_id: raffle.item_id,
          site_id: w.site,
          quantity: 1,
          amount: 2.5,
          currency: 'GBP',
          description: 'x',
        }),
      );
      await call(
        'post',
        '/auth/password-reset',
        as().post('/auth/password-reset', { email: buyer.email, site_id: w.site }),
      );
      await call('get', '/rewards/summary', as(buyer.token).get('/rewards/summary'));
      await call('get', '/rewards/referrals', as(buyer.token).get('/rewards/referrals'));
      await call(
        'get',
        '/raffles/item/{item_id}',
        as().get(`/raffles/item/${raffle.item_id}?site_id=${w.site}`),
      );
      await call('post', '/gaming/spin', as().post('/gaming/spin', { site_id: w.site }));
      await call('get', '/api/admin/merch/orders', as(w.admin.token).get('/api/admin/merch/orders'));
      await call(
        'post',
        '/discount-codes/{id}/claim',
        as(buyer.token).post(`/discount-codes/${codeId}/claim`),
      );
      await call(
        'get',
        '/discount-codes/{id}/with-claims',
        as(buyer.token).get(`/discount-codes/${codeId}/with-claims`),
      );
      await call('get', '/discount-codes/{id}', as(buyer.token).get(`/discount-codes/${codeId}`));
      await call(
        'post',
        '/discount-codes/bulk-generate',
        as(w.admin.token).post('/discount-codes/bulk-generate', {
          code_length: 8,
          count: 3,
          discount_brand_id: brandId,
          points_required: 0,
          title: 'Bulk',
        }),
      );
      const tier = await tierOn(w);
      await call(
        'put',
        '/admin/subscription-tiers/{id}',
        as(w.admin.token).put(`/admin/subscription-tiers/${tier.id}`, { sort_order: 3 }),
      );
      await call(
        'post',
        '/admin/site-configs',
        as(w.root.token).post('/admin/site-configs', {
          site_id: `probe-${uid()}`,
          display_name: 'Probe',
          email_provider: 'log',
          smtp_password: 'secret-pass',
          mailer_api_key: 'key-123456',
        }),
      );
      await call('get', '/payments/{id}', as(buyer.token).get(`/payments/${orderId}`));
      await call('get', '/users/me/entries', as(buyer.token).get('/users/me/entries'));
      await call('get', '/raffles/{id}/quote', as().get(`/raffles/${raffle.id}/quote?quantity=2`));
      await call('get', '/subscription-tiers', as().get(`/subscription-tiers?site_id=${w.site}`));
      await call('get', '/users/me/limits', as(buyer.token).get('/users/me/limits'));
      await call('get', '/rewards/referral-code', as(buyer.token).get('/rewards/referral-code'));
      await call('get', '/admin/payments', as(w.admin.token).get('/admin/payments'));
      await call('get', '/admin/subscriptions', as(w.admin.token).get('/admin/subscriptions'));
      await call(
        'get',
        '/admin/users',
        as(w.admin.token).get(`/admin/users?email=${encodeURIComponent(buyer.email)}`),
      );
      await call(
        'get',
        '/admin/site-configs/{site_id}',
        as(w.admin.token).get(`/admin/site-configs/${w.site}`),
      );
      const problems: string[] = [];
      for (const [method, path, res] of calls) {
        problems.push(...offContract(method, path, res));
        if (res.status < 300)
          problems.push(
            ...collapse(undocumentedKeys(successSchema(method, path, res.status), res.body)).map(
              (k) => `${method.toUpperCase()} ${path}: undeclared ${k}`,
            ),
          );
        else
          problems.push(
            `${method.toUpperCase()} ${path}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`,
          );
      }
      expect(problems).toEqual([]);
    });
  });
});
