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
  /** What the set-up has started, closed in reverse even when the set-up timed out half way. */
  const started: Array<() => Promise<void>> = [];
  let setUp: Promise<void> | undefined;
  beforeAll(
    () =>
      (setUp = (async () => {
        redis = await startRedis(binary!);
        started.push(() => redis.stop());
        a = await createTestApp({ redisUrl: redis.url });
        started.push(() => a.close());
        b = await createTestApp({ redisUrl: redis.url });
        started.push(() => b.close());
      })()),
  );
  // An app left open keeps jest alive after a failed run (it hung the CI at ec8e7f0): a set-up that timed
  // out may still be starting one, so it is waited for before everything it started is closed.
  afterAll(async () => {
    await setUp?.catch(() => undefined);
    for (const stop of started.reverse()) await stop();
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
