import type { AddressInfo } from 'node:net';
import createClient from 'openapi-fetch';
import type { paths } from '../generated/api-types';
import { createTestApp, type TestApp } from '../support/app';
import { DEFAULT_PASSWORD, makeSite, makeUser, uid } from '../support/factories';
import { makePublished } from '../support/raffles';

/**
 * A client generated from the committed openapi.json (`npm run client:types` → test/generated/api-types.ts),
 * typed by openapi-fetch, used unchanged against the running service over real HTTP: if the document and
 * the service disagree on a path, a parameter or a field, this file stops compiling (the tsc check in
 * `npm run lint`) or these assertions fail.
 */
describe('a client typed by the committed OpenAPI document', () => {
  let t: TestApp;
  let client: ReturnType<typeof createClient<paths>>;
  let siteId: string;
  let raffle: Awaited<ReturnType<typeof makePublished>>;

  beforeAll(async () => {
    t = await createTestApp();
    // Port 0: the kernel picks a free port as it binds (a port found free first can be taken meanwhile).
    await t.app.listen(0, '127.0.0.1');
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    client = createClient<paths>({ baseUrl: `http://127.0.0.1:${port}` });
    siteId = await makeSite(t);
    const admin = await makeUser(t, siteId, { role: 'admin' });
    raffle = await makePublished(t, admin.token);
  });
  afterAll(async () => {
    await t.close();
  });

  const email = `typed-${uid()}@example.com`;

  it('registers a member (POST /auth/register) and reads the typed tokens and user', async () => {
    const { data, error, response } = await client.POST('/auth/register', {
      body: {
        email,
        password: DEFAULT_PASSWORD,
        site_id: siteId,
        name: 'Typed Client',
        data_processing_consent: true,
        age_confirmed: true,
      },
    });
    expect(error).toBeUndefined();
    expect(response.status).toBe(201);
    if (!data) throw new Error('no body');
    expect(data.token_type).toBe('Bearer');
    expect(data.expires_in).toBeGreaterThan(0);
    expect(data.access_token.split('.')).toHaveLength(3);
    expect(data.refresh_token.length).toBeGreaterThan(20);
    expect(data.user.email).toBe(email);
    expect(data.user.site_id).toBe(siteId);
    expect(data.user.role).toBe('user');
  });

  it('signs in (POST /auth/login) and reads itself with the token (GET /users/me)', async () => {
    const login = await client.POST('/auth/login', {
      body: { email, password: DEFAULT_PASSWORD, site_id: siteId },
    });
    expect(login.response.status).toBe(200);
    if (!login.data) throw new Error('no body');
    const token = login.data.access_token;

    const me = await client.GET('/users/me', { headers: { Authorization: `Bearer ${token}` } });
    expect(me.response.status).toBe(200);
    if (!me.data) throw new Error('no body');
    expect(me.data.email).toBe(email);
    expect(me.data.name).toBe('Typed Client');
    expect(me.data.role).toBe('user');
    expect(me.data.data_processing_consent).toBe(true);
    expect(me.data.raffle_entries).toEqual([]);
  });

  it('lists the site’s raffles (GET /raffles?site_id=) with their typed fields', async () => {
    const { data, response } = await client.GET('/raffles', { params: { query: { site_id: siteId } } });
    expect(response.status).toBe(200);
    if (!data) throw new Error('no body');
    const listed = data.find((row) => row.id === raffle.id);
    expect(listed).toBeDefined();
    expect(listed?.name).toBe(raffle.name);
    expect(listed?.can_join).toBe(true);
    expect(listed?.currency).toBe('GBP');
    expect(listed?.current_entries).toBe(0);
  });

  it('reads one raffle by a typed path parameter, and an unknown one as a typed problem', async () => {
    const found = await client.GET('/raffles/{id}', { params: { path: { id: raffle.id } } });
    expect(found.response.status).toBe(200);
    expect(found.data?.id).toBe(raffle.id);

    const missing = await client.GET('/raffles/{id}', {
      params: { path: { id: '00000000-0000-4000-8000-000000000000' } },
    });
    expect(missing.response.status).toBe(404);
    expect(missing.data).toBeUndefined();
    expect(missing.error?.code).toBe('NOT_FOUND');
    expect(missing.error?.status).toBe(404);
  });

  it('is refused without a token (GET /users/me), the problem typed from the document', async () => {
    const { error, response } = await client.GET('/users/me');
    expect(response.status).toBe(401);
    expect(error?.code).toBe('UNAUTHENTICATED');
  });
});
