import { adminDeletionRefusal, selfDeletionCheck } from './account-deletion.rules.js';

describe('who may delete an account through the admin route', () => {
  const admin = { id: 'a1', role: 'admin' as const, siteId: 'shop' };
  const root = { id: 'r1', role: 'superadmin' as const, siteId: 'hq' };
  const user = { id: 'u1', role: 'user' as const, site_id: 'shop' };

  it('lets an admin delete a user of its own site', () => {
    expect(adminDeletionRefusal(admin, user)).toBeNull();
  });

  it('hides a user of another site from an admin (404), but not from a superadmin', () => {
    expect(adminDeletionRefusal(admin, { ...user, site_id: 'other' })).toBe('NOT_FOUND');
    expect(adminDeletionRefusal(root, { ...user, site_id: 'other' })).toBeNull();
  });

  it('leaves admins and superadmins to a superadmin', () => {
    expect(adminDeletionRefusal(admin, { ...user, role: 'admin' })).toBe('ROLE');
    expect(adminDeletionRefusal(admin, { ...user, role: 'superadmin' })).toBe('ROLE');
    expect(adminDeletionRefusal(root, { ...user, role: 'admin' })).toBeNull();
    expect(adminDeletionRefusal(root, { ...user, id: 'r2', role: 'superadmin', site_id: 'hq' })).toBeNull();
  });

  it('never lets anyone delete itself there', () => {
    expect(adminDeletionRefusal(admin, { id: 'a1', role: 'admin', site_id: 'shop' })).toBe('SELF');
    expect(adminDeletionRefusal(root, { id: 'r1', role: 'superadmin', site_id: 'hq' })).toBe('SELF');
  });
});

describe('what deleting one’s own account asks for', () => {
  const now = new Date('2026-11-25T10:00:00Z');

  it('asks an account with a password for it', () => {
    expect(selfDeletionCheck({ hasPassword: true, lockedUntil: null }, 'secret', now)).toBe('PASSWORD');
    expect(selfDeletionCheck({ hasPassword: true, lockedUntil: null }, undefined, now)).toBe(
      'PASSWORD_MISSING',
    );
    expect(selfDeletionCheck({ hasPassword: true, lockedUntil: null }, '', now)).toBe('PASSWORD_MISSING');
  });

  it('asks nothing of an account that never had a password', () => {
    expect(selfDeletionCheck({ hasPassword: false, lockedUntil: null }, undefined, now)).toBe('NONE');
  });

  it('refuses a locked account without checking, and lets an expired lock pass', () => {
    const later = new Date('2026-11-25T10:10:00Z');
    const earlier = new Date('2026-11-25T09:50:00Z');
    expect(selfDeletionCheck({ hasPassword: true, lockedUntil: later }, 'secret', now)).toBe('LOCKED');
    expect(selfDeletionCheck({ hasPassword: true, lockedUntil: earlier }, 'secret', now)).toBe('PASSWORD');
  });
});
