import { api } from './api';
import type { TestApp } from './app';
import { uid } from './factories';

const DAY = 24 * 60 * 60 * 1000;

/** The spec's Raffle entry form, as nested in a Raffle or a User (DESIGN §4: never omit one). */
export const RAFFLE_ENTRY_FIELDS = [
  'id',
  'raffle_id',
  'user_id',
  'site_id',
  'ip_address',
  'user_agent',
  'created_at',
  'entries_count',
  'points_spent',
  'raffle',
  'user',
].sort();

/** A valid `POST /admin/raffles` body: running from yesterday for a month, £2.50 a ticket. */
export function raffleBody(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: `Win a camper van ${uid()}`,
    currency: 'GBP',
    price_display: 2.5,
    total_entries_available: 1000,
    start_date: new Date(Date.now() - DAY).toISOString(),
    end_date: new Date(Date.now() + 30 * DAY).toISOString(),
    ...over,
  };
}

/** A draft made through the API by `adminToken`; answers its body. */
export async function makeDraft(
  t: TestApp,
  adminToken: string,
  over: Record<string, unknown> = {},
): Promise<Record<string, unknown> & { id: string; item_id: string }> {
  const res = await api(t.app).as(adminToken).post('/admin/raffles', raffleBody(over)).expect(201);
  return res.body as Record<string, unknown> & { id: string; item_id: string };
}

/** A published raffle (draft, then publish). */
export async function makePublished(
  t: TestApp,
  adminToken: string,
  over: Record<string, unknown> = {},
): Promise<Record<string, unknown> & { id: string; item_id: string }> {
  const draft = await makeDraft(t, adminToken, over);
  const res = await api(t.app).as(adminToken).post(`/admin/raffles/${draft.id}/publish`).expect(200);
  return res.body as Record<string, unknown> & { id: string; item_id: string };
}

export const days = (n: number): string => new Date(Date.now() + n * DAY).toISOString();
