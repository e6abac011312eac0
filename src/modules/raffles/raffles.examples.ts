/**
 * The raffle the document's examples make and sell (`POST /admin/raffles`; endpoints 3, 4 and 17 name
 * its `item_id`). Its dates are fixed so the committed document does not change from day to day: the
 * start is already past, so it takes orders once published, and the end is years ahead.
 */
export const RAFFLE_EXAMPLE = {
  item_id: 'win-a-camper-van',
  name: 'Win a camper van',
  slug: 'win-a-camper-van',
  short_teaser: 'A fully fitted camper van, ready for the road.',
  worth_total: '£45,000',
  currency: 'GBP',
  price_display: 2.5,
  total_entries_available: 10000,
  max_entries: 200,
  points_required: 100,
  points_enabled: true,
  allow_free_entries: true,
  start_date: '2026-01-01T00:00:00Z',
  end_date: '2036-12-31T23:59:59Z',
  discount_tiers: [{ min_quantity: 5, discount: 10 }],
  upsells: [{ quantity: 10, percentage: 20 }],
  mailer_email_params: { brand_name: 'Main Street Prizes', color_accent: '#ff6600' },
  // Announced while the raffle is open: the draw's example gives this round's value as its beacon.
  draw_beacon_round: 'drand quicknet round 12345678',
} as const;
