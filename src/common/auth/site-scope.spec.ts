import type { AuthUser } from './auth-user.js';
import { namedSite, resolveSite, siteSources } from './site-scope.js';

const admin: AuthUser = { id: 'u1', siteId: 'shop', role: 'admin', email: 'a@x', jti: 'j' };
const root: AuthUser = { ...admin, role: 'superadmin' };

describe('which site a request acts on', () => {
  it('is the site the request names (path, query, body or header), else the token’s', () => {
    expect(resolveSite({ path: 'shop', query: 'shop' }, admin)).toEqual({ ok: true, siteId: 'shop' });
    expect(resolveSite({ body: 'shop' }, admin)).toEqual({ ok: true, siteId: 'shop' });
    expect(resolveSite({ header: 'shop' }, admin)).toEqual({ ok: true, siteId: 'shop' });
    expect(resolveSite({}, admin)).toEqual({ ok: true, siteId: 'shop' });
    expect(resolveSite({ header: 'shop' }, undefined)).toEqual({ ok: true, siteId: 'shop' });
  });

  it('refuses a request naming two sites, whoever sends it: anything reading another name would act elsewhere', () => {
    const two = { ok: false, why: 'two-sites' };
    expect(resolveSite({ query: 'shop', body: 'other' }, admin)).toEqual(two);
    expect(resolveSite({ path: 'shop', header: 'other' }, root)).toEqual(two);
    expect(resolveSite({ query: 'shop', body: 'other' }, undefined)).toEqual(two);
    expect(resolveSite({ query: 'shop', body: '' }, undefined)).toEqual({ ok: true, siteId: 'shop' });
  });

  it('reads the names where Express puts them; the most explicit is the one rate limits use', () => {
    const sources = siteSources({
      params: { site_id: 'a' },
      query: { site_id: 'b' },
      body: { site_id: 'c' },
      headers: { 'x-site-id': 'd' },
    });
    expect(sources).toEqual({ path: 'a', query: 'b', body: 'c', header: 'd' });
    expect(namedSite(sources)).toBe('a');
    expect(namedSite(siteSources({ body: { site_id: 'c' }, headers: { 'x-site-id': 'c' } }))).toBe('c');
    expect(namedSite(siteSources({ headers: {} }))).toBeUndefined();
  });

  it('refuses an admin naming another site in the path; a superadmin may', () => {
    expect(resolveSite({ path: 'other' }, admin)).toEqual({ ok: false, why: 'other-site' });
    expect(resolveSite({ path: 'other' }, root)).toEqual({ ok: true, siteId: 'other' });
  });
});
