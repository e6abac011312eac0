import { api } from '../support/api';
import { createTestApp, type TestApp } from '../support/app';
import { makeSite, makeUser } from '../support/factories';

describe('the service starts and knows who is calling', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers /users/me for a valid token', async () => {
    const site = await makeSite(t);
    const u = await makeUser(t, site);
    const res = await api(t.app).as(u.token).get('/users/me').expect(200);
    expect(res.body.email).toBe(u.email);
  });
});
