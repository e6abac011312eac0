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
});
