import type { AuthUser } from './auth-user.js';
import { resolveSite } from './site-scope.js';

const admin: AuthUser = { id: 'u1', siteId: 'shop', role: 'admin', email: 'a@x', jti: 'j' };
const root: AuthUser = { ...admin, role: 'superadmin' };

describe('which site a request acts on', () => {
  it('is the path’s site_id first, then query, body, header, then the token’s', () => {
    expect(resolveSite({ path: 'shop', query: 'other' }, admin)).toEqual({ ok: true, siteId: 'shop' });
    expect(resolveSite({ query: 'shop', body: 'other' }, admin)).toEqual({ ok: true, siteId: 'shop' });
    expect(resolveSite({ header: 'shop' }, admin)).toEqual({ ok: true, siteId: 'shop' });
    expect(resolveSite({}, admin)).toEqual({ ok: true, siteId: 'shop' });
  });

  it('refuses an admin naming another site in the path; a superadmin may', () => {
    expect(resolveSite({ path: 'other' }, admin)).toEqual({ ok: false });
    expect(resolveSite({ path: 'other' }, root)).toEqual({ ok: true, siteId: 'other' });
  });
});
