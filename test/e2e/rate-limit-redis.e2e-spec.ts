import { api } from '../support/api';
import { createTestApp, type TestApp } from '../support/app';
import { makeSite, uid } from '../support/factories';
import { redisBinary, startRedis } from '../support/redis-server';

// Needs a redis-server binary (CI installs one: `.ci/run`). Without it there is nothing to test against.
const binary = redisBinary();
const describeWithRedis = binary ? describe : describe.skip;

describeWithRedis('rate limits shared through Redis (REDIS_URL)', () => {
  let redis: { url: string; stop(): Promise<void> };
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    redis = await startRedis(binary!);
    a = await createTestApp({ redisUrl: redis.url });
    b = await createTestApp({ redisUrl: redis.url });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await redis.stop();
  });

  it('counts one client’s registrations across two instances', async () => {
    const site = await makeSite(a);
    const ip = '198.51.100.20';
    const register = (t: TestApp) =>
      api(t.app)
        .from(ip)
        .post('/auth/register', {
          email: `redis-${uid()}@example.com`,
          password: 'shared-Limit-pass-42',
          site_id: site,
          data_processing_consent: true,
          age_confirmed: true,
        });
    const statuses: number[] = [];
    for (const t of [a, b, a, b, a, b]) statuses.push((await register(t)).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
  });
});
