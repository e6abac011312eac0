import { staffActionEntry } from './staff-action.rules.js';

const spec = { type: 'raffle_updated', resource: 'raffle', what: 'Raffle changed' };
const user = { id: 'admin-1', siteId: 'site-a' };

describe('a staff action’s record', () => {
  it('names the staff member, the site acted on, the route’s resource and the fields sent, sorted', () => {
    expect(
      staffActionEntry(
        spec,
        {
          user,
          siteId: 'site-b',
          params: { id: 'r-1' },
          body: { title: 'x', price_display: 9.99, site_id: 'site-b' },
        },
        { id: 'r-1' },
      ),
    ).toEqual({
      userId: 'admin-1',
      siteId: 'site-b',
      type: 'raffle_updated',
      description: 'Raffle changed: price_display, title',
      resourceType: 'raffle',
      resourceId: 'r-1',
      metadata: { fields: ['price_display', 'title'] },
    });
  });

  it('takes the id of what the answer made when the route names none, and says no fields when none were sent', () => {
    expect(staffActionEntry(spec, { user, params: {}, body: undefined }, { id: 'new-1' })).toMatchObject({
      siteId: 'site-a',
      resourceId: 'new-1',
      description: 'Raffle changed',
      metadata: {},
    });
    expect(staffActionEntry(spec, { user, params: { name: 'renewals' } }, undefined)?.resourceId).toBe(
      'renewals',
    );
  });

  it('records nothing without a signed-in caller', () => {
    expect(staffActionEntry(spec, { params: { id: 'r-1' } }, null)).toBeNull();
  });
  it('records on the site of what was acted on, as the answer names it, and ids in their one spelling', () => {
    const entry = staffActionEntry(
      spec,
      { user, siteId: 'site-a', params: { id: '8FD1659D-0000-4000-8000-00000000000A' } },
      { site_id: 'site-b' },
    );
    expect(entry).toMatchObject({ siteId: 'site-b', resourceId: '8fd1659d-0000-4000-8000-00000000000a' });
  });

  it('keeps a long list of fields in the metadata, and their count in the description', () => {
    const body = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`field_number_${i}`, i]));
    const entry = staffActionEntry(spec, { user, params: { id: 'r-1' }, body }, { id: 'r-1' });
    expect(entry?.description).toBe('Raffle changed: 40 fields');
    expect(entry?.metadata?.fields).toHaveLength(40);
  });
});
