import { api } from '../support/api';
import { createTestApp, type TestApp } from '../support/app';
import { makeSite, makeUser, type MadeUser, pointsOf, givePoints } from '../support/factories';
import { days, makeDraft, makePublished, RAFFLE_ENTRY_FIELDS } from '../support/raffles';

/** An entry's own answer: the spec's Raffle entry and how it was made, with its tickets. */
const ENTRY_FIELDS = [
  ...RAFFLE_ENTRY_FIELDS,
  'method',
  'ticket_from',
  'ticket_to',
  'payment_transaction_id',
].sort();

describe('entering a raffle without paying: points, the free route and postal entries', () => {
  let t: TestApp;
  let site: string;
  let otherSite: string;
  let admin: MadeUser;
  let otherAdmin: MadeUser;

  beforeAll(async () => {
    t = await createTestApp();
    site = await makeSite(t);
    otherSite = await makeSite(t);
    admin = await makeUser(t, site, { role: 'admin' });
    otherAdmin = await makeUser(t, otherSite, { role: 'admin' });
  });
  afterAll(async () => {
    await t.close();
  });

  const raffle = (over: Record<string, unknown> = {}) => makePublished(t, admin.token, over);
  const give = (u: MadeUser, amount: number) => givePoints(t, admin.token, u, amount, 'Welcome points');
  const enter = (u: MadeUser, raffleId: string, body: Record<string, unknown>) =>
    api(t.app).as(u.token).post(`/raffles/${raffleId}/entries`, body).set('User-Agent', 'entries-e2e/1.0');
  const postal = (token: string, raffleId: string, body: Record<string, unknown>) =>
    api(t.app).as(token).post(`/admin/raffles/${raffleId}/entries`, body);
  const balance = (u: MadeUser): Promise<number> => pointsOf(t, u.user.id);
  const counters = async (raffleId: string) => {
    const [row] = await t.db.query<Array<Record<string, unknown>>>(
      `SELECT current_entries, entries_purchased, closed FROM raffles WHERE id = $1`,
      [raffleId],
    );
    return row;
  };
  const entriesOf = (raffleId: string) =>
    t.db.query<Array<Record<string, unknown>>>(
      `SELECT method, entries_count, ticket_from, ticket_to, points_spent FROM raffle_entries
        WHERE raffle_id = $1 ORDER BY ticket_from`,
      [raffleId],
    );

  describe('with points', () => {
    it('takes points_required × quantity from the balance, records the spend and numbers the tickets', async () => {
      const r = await raffle({ points_required: 15 });
      const u = await makeUser(t, site);
      await give(u, 100);
      const res = await enter(u, r.id, { method: 'points', quantity: 3 }).expect(201);
      expect(Object.keys(res.body).sort()).toEqual(ENTRY_FIELDS);
      expect(res.body).toMatchObject({
        raffle_id: r.id,
        user_id: u.user.id,
        site_id: site,
        entries_count: 3,
        points_spent: 45,
        method: 'points',
        ticket_from: 1,
        ticket_to: 3,
        payment_transaction_id: null,
        user_agent: 'entries-e2e/1.0',
      });
      expect(res.body.ip_address).toEqual(expect.any(String));
      expect(new Date(res.body.created_at).toISOString()).toBe(res.body.created_at);
      expect(res.body.raffle).toMatchObject({ id: r.id, current_entries: 3, entries_purchased: 0 });
      expect(res.body.user).toMatchObject({ id: u.user.id, email: u.email });
      expect(JSON.stringify(res.body)).not.toMatch(/password_hash|draw_seed"/);
      expect(await balance(u)).toBe(55);
      const ledger = await t.db.query(
        `SELECT transaction_type, amount FROM point_transactions WHERE user_id = $1 ORDER BY created_at, id`,
        [u.user.id],
      );
      expect(ledger).toEqual([
        { transaction_type: expect.not.stringMatching(/^spend$/), amount: 100 },
        { transaction_type: 'spend', amount: -45 },
      ]);
      expect(await counters(r.id)).toEqual({ current_entries: 3, entries_purchased: 0, closed: false });
    });

    it('refuses an entry the balance does not cover with 422 INSUFFICIENT_POINTS and changes nothing', async () => {
      const r = await raffle({ points_required: 40 });
      const u = await makeUser(t, site);
      await give(u, 100);
      const res = await enter(u, r.id, { method: 'points', quantity: 3 }).expect(422);
      expect(res.body.code).toBe('INSUFFICIENT_POINTS');
      expect(await balance(u)).toBe(100);
      expect(await entriesOf(r.id)).toEqual([]);
      expect(await counters(r.id)).toEqual({ current_entries: 0, entries_purchased: 0, closed: false });
      expect(await t.db.query(`SELECT 1 FROM raffle_user_entries WHERE raffle_id = $1`, [r.id])).toHaveLength(
        0,
      );
    });

    it('refuses points where the raffle asks none (422 POINTS_NOT_ACCEPTED)', async () => {
      const r = await raffle({ points_required: 0 });
      const u = await makeUser(t, site);
      await give(u, 100);
      const res = await enter(u, r.id, { method: 'points', quantity: 1 }).expect(422);
      expect(res.body.code).toBe('POINTS_NOT_ACCEPTED');
      expect(await balance(u)).toBe(100);
    });

    it('gives back nothing when a points entry is refused for the raffle’s sake: points stay', async () => {
      const r = await raffle({ points_required: 1, total_entries_available: 2 });
      const u = await makeUser(t, site);
      await give(u, 10);
      const res = await enter(u, r.id, { method: 'points', quantity: 3 }).expect(422);
      expect(res.body.code).toBe('SOLD_OUT');
      expect(await balance(u)).toBe(10);
    });
  });

  describe('by the free route', () => {
    it('gives one ticket once where the raffle offers it, without touching the purchase count', async () => {
      const r = await raffle({ allow_free_entries: true });
      const u = await makeUser(t, site);
      const res = await enter(u, r.id, { method: 'free', quantity: 1 }).expect(201);
      expect(res.body).toMatchObject({
        method: 'free',
        entries_count: 1,
        points_spent: 0,
        ticket_from: 1,
        ticket_to: 1,
      });
      const again = await enter(u, r.id, { method: 'free', quantity: 1 }).expect(409);
      expect(again.body.code).toBe('ALREADY_ENTERED_FREE');
      expect(await counters(r.id)).toEqual({ current_entries: 1, entries_purchased: 0, closed: false });
    });

    it('refuses it where the raffle does not offer it (422 FREE_ENTRY_NOT_OFFERED)', async () => {
      const r = await raffle();
      const u = await makeUser(t, site);
      const res = await enter(u, r.id, { method: 'free', quantity: 1 }).expect(422);
      expect(res.body.code).toBe('FREE_ENTRY_NOT_OFFERED');
    });

    it('gives exactly one ticket, never more (400 for a quantity above 1)', async () => {
      const r = await raffle({ allow_free_entries: true });
      const u = await makeUser(t, site);
      const res = await enter(u, r.id, { method: 'free', quantity: 2 }).expect(400);
      expect(res.body.errors).toEqual([expect.objectContaining({ field: 'quantity' })]);
      expect(await entriesOf(r.id)).toEqual([]);
    });

    it('lets exactly one of two parallel free entries through; the other is 409 ALREADY_ENTERED_FREE', async () => {
      const r = await raffle({ allow_free_entries: true });
      const u = await makeUser(t, site);
      const results = await Promise.all(
        Array.from({ length: 4 }, () => enter(u, r.id, { method: 'free', quantity: 1 })),
      );
      const statuses = results.map((x) => x.status).sort();
      expect(statuses).toEqual([201, 409, 409, 409]);
      for (const x of results.filter((y) => y.status === 409))
        expect(x.body.code).toBe('ALREADY_ENTERED_FREE');
      expect(await entriesOf(r.id)).toHaveLength(1);
      expect((await counters(r.id)).current_entries).toBe(1);
    });
  });

  it('answers 422 CREDITS_UNAVAILABLE for subscription credits', async () => {
    const r = await raffle();
    const u = await makeUser(t, site);
    const res = await enter(u, r.id, { method: 'credits', quantity: 1 }).expect(422);
    expect(res.body.code).toBe('CREDITS_UNAVAILABLE');
  });

  it('numbers tickets contiguously across entries and ways in; only money counts as purchased', async () => {
    const r = await raffle({ points_required: 2, allow_free_entries: true });
    const a = await makeUser(t, site);
    const b = await makeUser(t, site);
    await give(a, 50);
    await give(b, 50);
    await enter(a, r.id, { method: 'points', quantity: 2 }).expect(201);
    await enter(b, r.id, { method: 'free', quantity: 1 }).expect(201);
    await postal(admin.token, r.id, { user_id: a.user.id, quantity: 3, method: 'postal' }).expect(201);
    await enter(b, r.id, { method: 'points', quantity: 4 }).expect(201);
    expect(await entriesOf(r.id)).toEqual([
      { method: 'points', entries_count: 2, ticket_from: 1, ticket_to: 2, points_spent: 4 },
      { method: 'free', entries_count: 1, ticket_from: 3, ticket_to: 3, points_spent: 0 },
      { method: 'postal', entries_count: 3, ticket_from: 4, ticket_to: 6, points_spent: 0 },
      { method: 'points', entries_count: 4, ticket_from: 7, ticket_to: 10, points_spent: 8 },
    ]);
    expect(await counters(r.id)).toEqual({ current_entries: 10, entries_purchased: 0, closed: false });
  });

  describe('which raffles can be entered', () => {
    it('answers 404 for another site’s raffle, a draft and a malformed id', async () => {
      const u = await makeUser(t, site);
      await give(u, 10);
      const foreign = await makePublished(t, otherAdmin.token, { points_required: 1 });
      const draft = await makeDraft(t, admin.token, { points_required: 1 });
      for (const id of [foreign.id, draft.id, 'not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
        const res = await enter(u, id, { method: 'points', quantity: 1 }).expect(404);
        expect(res.body.code).toBe('NOT_FOUND');
      }
      expect(await balance(u)).toBe(10);
    });

    it('answers 409 RAFFLE_CLOSED once an admin closed it, and keeps the points', async () => {
      const r = await raffle({ points_required: 1, allow_free_entries: true, total_entries_available: 3 });
      await api(t.app).as(admin.token).post(`/admin/raffles/${r.id}/close`).expect(200);
      const u = await makeUser(t, site);
      await give(u, 10);
      expect((await enter(u, r.id, { method: 'points', quantity: 1 }).expect(409)).body.code).toBe(
        'RAFFLE_CLOSED',
      );
      expect((await enter(u, r.id, { method: 'free', quantity: 1 }).expect(409)).body.code).toBe(
        'RAFFLE_CLOSED',
      );
      // More than are left is still "closed", not "sold out": fewer would not get in either.
      expect((await enter(u, r.id, { method: 'points', quantity: 5 }).expect(409)).body.code).toBe(
        'RAFFLE_CLOSED',
      );
      expect(await balance(u)).toBe(10);
    });

    it('sells the last tickets, closes the raffle, then answers 422 SOLD_OUT', async () => {
      const r = await raffle({ points_required: 1, total_entries_available: 5 });
      const u = await makeUser(t, site);
      await give(u, 20);
      expect((await enter(u, r.id, { method: 'points', quantity: 6 }).expect(422)).body.code).toBe(
        'SOLD_OUT',
      );
      await enter(u, r.id, { method: 'points', quantity: 5 }).expect(201);
      expect(await counters(r.id)).toEqual({ current_entries: 5, entries_purchased: 0, closed: true });
      expect((await enter(u, r.id, { method: 'points', quantity: 1 }).expect(422)).body.code).toBe(
        'SOLD_OUT',
      );
      expect(await balance(u)).toBe(15);
    });

    it('answers 409 RAFFLE_NOT_STARTED with the start date before the start, keeping the points', async () => {
      const u = await makeUser(t, site);
      await give(u, 10);
      const early = await raffle({ points_required: 1, start_date: days(2), end_date: days(9) });
      const res = await enter(u, early.id, { method: 'points', quantity: 1 }).expect(409);
      expect(res.body.code).toBe('RAFFLE_NOT_STARTED');
      expect(res.body.detail).toContain(new Date(early.start_date as string).toISOString());
      expect(await balance(u)).toBe(10);
    });

    it('answers 409 RAFFLE_CLOSED after the end and while switched off', async () => {
      const u = await makeUser(t, site);
      await give(u, 10);
      const ended = await raffle({ points_required: 1 });
      await t.db.query(
        `UPDATE raffles SET start_date = now() - interval '2 days', end_date = now() - interval '1 minute' WHERE id = $1`,
        [ended.id],
      );
      const off = await raffle({ points_required: 1 });
      await api(t.app).as(admin.token).put(`/admin/raffles/${off.id}`, { active: false }).expect(200);
      for (const r of [ended, off]) {
        const res = await enter(u, r.id, { method: 'points', quantity: 1 }).expect(409);
        expect(res.body.code).toBe('RAFFLE_CLOSED');
      }
      expect(await balance(u)).toBe(10);
    });

    it('answers 422 INSUFFICIENT_POINTS, not a fault, when the cost is beyond any balance', async () => {
      const r = await raffle({ points_required: 10_000_000, total_entries_available: 10_000_000 });
      const u = await makeUser(t, site);
      await give(u, 10);
      const res = await enter(u, r.id, { method: 'points', quantity: 10_000 }).expect(422);
      expect(res.body.code).toBe('INSUFFICIENT_POINTS');
      expect(await balance(u)).toBe(10);
    });

    it('holds a user to max_entries (422 MAX_ENTRIES_REACHED), other users unaffected', async () => {
      const r = await raffle({ points_required: 1, max_entries: 3 });
      const u = await makeUser(t, site);
      const other = await makeUser(t, site);
      await give(u, 20);
      await give(other, 20);
      expect((await enter(u, r.id, { method: 'points', quantity: 4 }).expect(422)).body.code).toBe(
        'MAX_ENTRIES_REACHED',
      );
      await enter(u, r.id, { method: 'points', quantity: 2 }).expect(201);
      expect((await enter(u, r.id, { method: 'points', quantity: 2 }).expect(422)).body.code).toBe(
        'MAX_ENTRIES_REACHED',
      );
      await enter(u, r.id, { method: 'points', quantity: 1 }).expect(201);
      await enter(other, r.id, { method: 'points', quantity: 3 }).expect(201);
      expect(await balance(u)).toBe(17);
      expect((await counters(r.id)).current_entries).toBe(6);
    });
  });

  describe('bad requests', () => {
    it('answers 400 to wrong types, unknown and missing fields, and quantities beyond the limits', async () => {
      const r = await raffle({ points_required: 1 });
      const u = await makeUser(t, site);
      await give(u, 10);
      const bodies: Array<[Record<string, unknown>, string]> = [
        [{ method: 'points' }, 'quantity'],
        [{ quantity: 1 }, 'method'],
        [{ method: 'points', quantity: 0 }, 'quantity'],
        [{ method: 'points', quantity: 10_001 }, 'quantity'],
        [{ method: 'points', quantity: 1.5 }, 'quantity'],
        [{ method: 'points', quantity: '1' }, 'quantity'],
        [{ method: 'postal', quantity: 1 }, 'method'],
        [{ method: 'paid', quantity: 1 }, 'method'],
        [{ method: 'points', quantity: 1, user_id: u.user.id }, 'user_id'],
      ];
      for (const [body, field] of bodies) {
        const res = await enter(u, r.id, body).expect(400);
        expect(res.body.code).toBe('VALIDATION_FAILED');
        expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
      }
      expect(await balance(u)).toBe(10);
    });

    it('asks for a signed-in user (401 without a token)', async () => {
      const r = await raffle({ points_required: 1 });
      await api(t.app).post(`/raffles/${r.id}/entries`, { method: 'points', quantity: 1 }).expect(401);
    });
  });

  it('sends the raffle_entry e-mail with the ticket numbers once the queue runs', async () => {
    const r = await raffle({ points_required: 1 });
    const u = await makeUser(t, site);
    await give(u, 10);
    await enter(u, r.id, { method: 'points', quantity: 2 }).expect(201);
    await t.drain();
    const mails = t.smtp
      .to(u.email)
      .filter((m) => m.subject === `You are in the draw for ${r.name as string}`);
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain('1–2');
  });

  it('greets the entrant by their own first name in the raffle_entry e-mail, not the raffle’s', async () => {
    const r = await raffle({ points_required: 1, mailer_email_params: { first_name: 'Valued Customer' } });
    const u = await makeUser(t, site);
    await api(t.app)
      .as(u.token)
      .put('/users/profile', { profile: { first_name: 'Bea' } })
      .expect(200);
    await give(u, 10);
    await enter(u, r.id, { method: 'points', quantity: 1 }).expect(201);
    await t.drain();
    const [mail] = t.smtp.to(u.email).filter((m) => m.subject.startsWith('You are in the draw'));
    expect(mail.text).toContain('Hello Bea,');
  });

  it('replays an Idempotency-Key: the same answer, one entry, points spent once', async () => {
    const r = await raffle({ points_required: 5 });
    const u = await makeUser(t, site);
    await give(u, 100);
    const key = `entry-${r.id}`;
    const first = await enter(u, r.id, { method: 'points', quantity: 2 })
      .set('Idempotency-Key', key)
      .expect(201);
    const replay = await enter(u, r.id, { method: 'points', quantity: 2 })
      .set('Idempotency-Key', key)
      .expect(201);
    expect(replay.body).toEqual(first.body);
    const reused = await enter(u, r.id, { method: 'points', quantity: 3 })
      .set('Idempotency-Key', key)
      .expect(422);
    expect(reused.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await entriesOf(r.id)).toHaveLength(1);
    expect(await balance(u)).toBe(90);
  });

  describe('postal entries added by an admin', () => {
    it('adds the entrant’s tickets with the note (201), counted like any entry', async () => {
      const r = await raffle({ total_entries_available: 10, max_entries: 4 });
      const u = await makeUser(t, site);
      const res = await postal(admin.token, r.id, {
        user_id: u.user.id,
        quantity: 4,
        method: 'postal',
        note: 'Postcard, postmarked 3 March',
      }).expect(201);
      expect(Object.keys(res.body).sort()).toEqual(ENTRY_FIELDS);
      expect(res.body).toMatchObject({
        user_id: u.user.id,
        method: 'postal',
        entries_count: 4,
        ticket_from: 1,
        ticket_to: 4,
        points_spent: 0,
      });
      // The entrant's User record is not handed to the admin (unexpanded, as in the member's own list).
      expect(res.body.user).toBeNull();
      const [row] = await t.db.query(`SELECT note, created_by FROM raffle_entries WHERE id = $1`, [
        res.body.id,
      ]);
      expect(row).toEqual({ note: 'Postcard, postmarked 3 March', created_by: admin.user.id });
      expect(await counters(r.id)).toEqual({ current_entries: 4, entries_purchased: 0, closed: false });
      const over = await postal(admin.token, r.id, {
        user_id: u.user.id,
        quantity: 1,
        method: 'postal',
      }).expect(422);
      expect(over.body.code).toBe('MAX_ENTRIES_REACHED');
    });

    it('shows the member neither the admin’s address nor browser, and the admin not a staff entrant’s record', async () => {
      const r = await raffle();
      const u = await makeUser(t, site);
      await api(t.app)
        .as(admin.token)
        .from('198.51.100.77')
        .post(`/admin/raffles/${r.id}/entries`, { user_id: u.user.id, quantity: 1, method: 'postal' })
        .set('User-Agent', 'AdminConsole/9.1 (staff laptop 42)')
        .expect(201);
      const mine = await api(t.app).as(u.token).get('/users/me/entries').expect(200);
      const me = await api(t.app).as(u.token).get('/users/me').expect(200);
      for (const entry of [mine.body[0], me.body.raffle_entries[0]])
        expect(entry).toMatchObject({ ip_address: null, user_agent: null });
      const seen = JSON.stringify([mine.body, me.body.raffle_entries]);
      expect(seen).not.toContain('198.51.100.77');
      expect(seen).not.toContain('AdminConsole');
      // A fellow admin as the entrant: the answer carries no record of theirs (sessions, addresses, activity).
      const colleague = await makeUser(t, site, { role: 'admin' });
      const res = await postal(admin.token, r.id, {
        user_id: colleague.user.id,
        quantity: 1,
        method: 'postal',
      });
      expect(res.status).toBe(201);
      expect(res.body.user).toBeNull();
    });

    it('stops at total_entries_available (422 SOLD_OUT)', async () => {
      const r = await raffle({ total_entries_available: 3 });
      const u = await makeUser(t, site);
      const res = await postal(admin.token, r.id, {
        user_id: u.user.id,
        quantity: 4,
        method: 'postal',
      }).expect(422);
      expect(res.body.code).toBe('SOLD_OUT');
      await postal(admin.token, r.id, { user_id: u.user.id, quantity: 3, method: 'postal' }).expect(201);
      expect(await counters(r.id)).toMatchObject({ current_entries: 3, closed: true });
    });

    it('keeps to the admin’s site: another site’s user 404, another site’s admin refused, a user 403', async () => {
      const r = await raffle();
      const local = await makeUser(t, site);
      const foreigner = await makeUser(t, otherSite);
      const body = { user_id: local.user.id, quantity: 1, method: 'postal' };
      await postal(admin.token, r.id, { ...body, user_id: foreigner.user.id }).expect(404);
      const cross = await postal(otherAdmin.token, r.id, body);
      expect([403, 404]).toContain(cross.status);
      await postal(local.token, r.id, body).expect(403);
      const foreignRaffle = await makePublished(t, otherAdmin.token);
      await postal(admin.token, foreignRaffle.id, body).expect(404);
      expect(await entriesOf(r.id)).toEqual([]);
    });

    it('answers 400 to a wrong method, a missing user, unknown fields and quantities beyond the limits', async () => {
      const r = await raffle();
      const u = await makeUser(t, site);
      const ok = { user_id: u.user.id, quantity: 1, method: 'postal' };
      for (const [body, field] of [
        [{ ...ok, method: 'free' }, 'method'],
        [{ quantity: 1, method: 'postal' }, 'user_id'],
        [{ ...ok, quantity: 0 }, 'quantity'],
        [{ ...ok, quantity: 10_001 }, 'quantity'],
        [{ ...ok, note: 'x'.repeat(501) }, 'note'],
        [{ ...ok, points_spent: 5 }, 'points_spent'],
      ] as Array<[Record<string, unknown>, string]>) {
        const res = await postal(admin.token, r.id, body).expect(400);
        expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
      }
      await postal(admin.token, r.id, { ...ok, user_id: 'not-a-user' }).expect(404);
      expect(await entriesOf(r.id)).toEqual([]);
    });
  });

  describe('reading entries', () => {
    it('lists only my own entries, newest first, page by page', async () => {
      const r1 = await raffle({ points_required: 1 });
      const r2 = await raffle({ points_required: 1 });
      const me = await makeUser(t, site);
      const someoneElse = await makeUser(t, site);
      await give(me, 50);
      await give(someoneElse, 50);
      const ids: string[] = [];
      for (const [r, q] of [
        [r1, 1],
        [r2, 2],
        [r1, 3],
      ] as const) {
        ids.push((await enter(me, r.id, { method: 'points', quantity: q }).expect(201)).body.id);
        await enter(someoneElse, r.id, { method: 'points', quantity: 1 }).expect(201);
      }
      const all = await api(t.app).as(me.token).get('/users/me/entries').expect(200);
      expect(all.body.map((e: { id: string }) => e.id)).toEqual([...ids].reverse());
      expect(all.body[0]).toMatchObject({ raffle_id: r1.id, entries_count: 3, user: null });
      expect(all.body[0].raffle).toMatchObject({ id: r1.id });
      expect(Object.keys(all.body[0]).sort()).toEqual(ENTRY_FIELDS);

      const first = await api(t.app).as(me.token).get('/users/me/entries?limit=2').expect(200);
      expect(first.body.map((e: { id: string }) => e.id)).toEqual([ids[2], ids[1]]);
      const cursor = first.headers['x-next-cursor'];
      expect(cursor).toBe(ids[1]);
      const second = await api(t.app)
        .as(me.token)
        .get(`/users/me/entries?limit=2&cursor=${cursor}`)
        .expect(200);
      expect(second.body.map((e: { id: string }) => e.id)).toEqual([ids[0]]);
      expect(second.headers['x-next-cursor']).toBeUndefined();
      await api(t.app).as(me.token).get('/users/me/entries?limit=0').expect(400);
      await api(t.app).as(me.token).get('/users/me/entries?limit=101').expect(400);
      await api(t.app).as(me.token).get('/users/me/entries?cursor=nope').expect(400);
      await api(t.app).get('/users/me/entries').expect(401);
    });

    it('nests entries in the raffle: the public sees no account, address or agent, the admin list does', async () => {
      const r = await raffle({ points_required: 1 });
      const u = await makeUser(t, site);
      await give(u, 5);
      const made = await enter(u, r.id, { method: 'points', quantity: 2 }).expect(201);
      const pub = await api(t.app).get(`/raffles/${r.id}?site_id=${site}`).expect(200);
      expect(pub.body.entries).toEqual([
        {
          id: made.body.id,
          raffle_id: r.id,
          user_id: null,
          site_id: site,
          ip_address: null,
          user_agent: null,
          created_at: made.body.created_at,
          entries_count: 2,
          points_spent: 2,
          // The spec's Raffle entry names both; nested, neither is expanded.
          raffle: null,
          user: null,
        },
      ]);
      const list = await api(t.app).as(admin.token).get(`/admin/raffles?limit=100`).expect(200);
      const mine = list.body.find((x: { id: string }) => x.id === r.id);
      expect(mine.entries).toEqual([
        expect.objectContaining({
          id: made.body.id,
          user_id: u.user.id,
          ip_address: made.body.ip_address,
          user_agent: 'entries-e2e/1.0',
        }),
      ]);
    });
  });
});
