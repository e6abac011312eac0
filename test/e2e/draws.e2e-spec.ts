import { execFile } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { type CheckedEntry, InstantWinsService } from '#app/modules/raffles/draws/instant-wins.service.js';
import { runIntegrityChecks } from '#app/infra/database/integrity/check-integrity.js';
import { api } from '../support/api';
import { makeSite, makeUser, type MadeUser } from '../support/factories';
import { untilSomeoneWaits } from '../support/held-rows';
import { mailJobsTo } from '../support/mail';
import { type MembershipWorld, runJob, withRoot } from '../support/memberships';
import { confirm, orderAsUser, raffleOn, startPaymentsWorld, stopPaymentsWorld } from '../support/payments';
import { raffleBody } from '../support/raffles';

/**
 * DESIGN §6 "Draw", written again here from the text alone (never the service's own functions): the
 * test's draw must agree with the service's byte for byte.
 */
function independentDraw(
  seedHex: string,
  raffleId: string,
  listHash: string,
  beacon: string | null,
  csv: string,
  wanted: number,
): Array<{ index: number; ticket: number; entry_id: string }> {
  const lines = csv
    .split('\n')
    .slice(1)
    .filter(Boolean)
    .map((l) => l.split(','));
  const ranges = lines.map(([from, to, id]) => ({ from: Number(from), to: Number(to), id }));
  const n = BigInt(ranges.length ? ranges[ranges.length - 1].to : 0);
  const max = 2n ** 64n;
  const out: Array<{ index: number; ticket: number; entry_id: string }> = [];
  const seen = new Set<string>();
  for (let i = 0; out.length < Math.min(wanted, ranges.length); i++) {
    let ticket = 0;
    for (let j = 0; ; j++) {
      const h = createHmac('sha256', Buffer.from(seedHex, 'hex'))
        .update(Buffer.from(`${raffleId}|${listHash}|${beacon ?? ''}|${i}|${j}`, 'utf8'))
        .digest();
      const x = BigInt('0x' + h.subarray(0, 8).toString('hex'));
      if (x < max - (max % n)) {
        ticket = Number(x % n) + 1;
        break;
      }
    }
    const entry = ranges.find((r) => r.from <= ticket && ticket <= r.to);
    if (!entry || seen.has(entry.id)) continue;
    seen.add(entry.id);
    out.push({ index: i, ticket, entry_id: entry.id });
  }
  return out;
}

const onPostgres = !!process.env.TEST_DATABASE_URL;
const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

interface Proof {
  raffle_id: string;
  algorithm: string;
  seed_hash: string;
  ticket_list_hash: string | null;
  ticket_count: number | null;
  beacon_round: string | null;
  beacon: string | null;
  seed: string | null;
  winners: Array<{ index: number; ticket: number; entry_id: string }>;
  instant_wins: Array<{ ticket: number; prize: string }>;
}

const VERIFY = join(__dirname, '..', '..', 'scripts', 'verify-draw.mjs');

function verify(...args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [VERIFY, ...args], (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, out: stdout + stderr });
    });
  });
}

/** Issue 13: close, draw, reveal — and anyone can recompute the result. */
describe('draws anyone can verify (issue 13)', () => {
  let w: MembershipWorld;
  let baseUrl: string;

  beforeAll(async () => {
    w = await withRoot(await startPaymentsWorld());
    const { port } = w.t.app.getHttpServer().address() as AddressInfo;
    baseUrl = `http://127.0.0.1:${port}`;
  });
  afterAll(() => stopPaymentsWorld(w));

  const admin = () => api(w.t.app).as(w.admin.token);
  const member = async (firstName: string, county: string): Promise<MadeUser> => {
    const u = await makeUser(w.t, w.site);
    await w.t.db.query(
      `INSERT INTO user_profiles (user_id, site_id, first_name, last_name, city, state_region)
       VALUES ($1, $2, $3, 'Private-Surname', 'Private-Town', $4)
       ON CONFLICT (user_id) DO UPDATE SET first_name = $3, last_name = 'Private-Surname',
         city = 'Private-Town', state_region = $4`,
      [u.user.id, w.site, firstName, county],
    );
    return u;
  };
  const postal = (raffleId: string, user: MadeUser, quantity: number) =>
    admin()
      .post(`/admin/raffles/${raffleId}/entries`, { user_id: user.user.id, quantity, method: 'postal' })
      .expect(201);
  const free = (raffleId: string, user: MadeUser) =>
    api(w.t.app)
      .as(user.token)
      .post(`/raffles/${raffleId}/entries`, { method: 'free', quantity: 1 })
      .expect(201);
  const close = (raffleId: string) => admin().post(`/admin/raffles/${raffleId}/close`).expect(200);
  const draw = (raffleId: string, body: Record<string, unknown>) =>
    admin().post(`/admin/raffles/${raffleId}/draw`, body);
  const proofOf = async (raffleId: string): Promise<Proof> =>
    (await api(w.t.app).get(`/raffles/${raffleId}/draw-proof`).expect(200)).body as Proof;
  const csvOf = async (raffleId: string): Promise<string> => {
    const res = await fetch(`${baseUrl}/raffles/${raffleId}/draw-proof/tickets.csv`);
    expect(res.status).toBe(200);
    return Buffer.from(await res.arrayBuffer()).toString('utf8');
  };

  /** A published raffle with free and postal entries from five members; answers it and them. */
  async function enteredRaffle(
    over: Record<string, unknown> = {},
  ): Promise<{ id: string; people: MadeUser[] }> {
    const r = await raffleOn(w, { allow_free_entries: true, total_entries_available: 500, ...over });
    const people = [
      await member('Alice Mary', 'Kent'),
      await member('Bob', 'Devon'),
      await member('Carol', 'Fife'),
      await member('Dan', 'Powys'),
      await member('Eve', 'Antrim'),
    ];
    await free(r.id, people[0]);
    await postal(r.id, people[1], 40);
    await free(r.id, people[2]);
    await postal(r.id, people[3], 7);
    await free(r.id, people[4]);
    await postal(r.id, people[0], 3);
    return { id: r.id, people };
  }

  it('publishes the ticket list and its hash at the close, and reveals the seed only at the draw', async () => {
    const { id } = await enteredRaffle();
    const open = await proofOf(id);
    expect(open).toMatchObject({ ticket_list_hash: null, seed: null, winners: [] });
    await api(w.t.app).get(`/raffles/${id}/draw-proof/tickets.csv`).expect(404);

    await close(id);
    const closed = await proofOf(id);
    const csv = await csvOf(id);
    const entries = await w.t.db.query<Array<{ id: string; ticket_from: number; ticket_to: number }>>(
      `SELECT id, ticket_from, ticket_to FROM raffle_entries WHERE raffle_id = $1 ORDER BY ticket_from`,
      [id],
    );
    expect(csv).toBe(
      'ticket_from,ticket_to,entry_id\n' +
        entries.map((e) => `${e.ticket_from},${e.ticket_to},${e.id}\n`).join(''),
    );
    expect(csv).not.toMatch(/@|Private|Alice/); // no personal data
    expect(closed.ticket_list_hash).toBe(sha256(csv));
    expect(closed.ticket_count).toBe(53);
    expect(closed.seed).toBeNull();
  });

  it('draws exactly what an independent implementation of §6 computes from the public proof', async () => {
    const { id, people } = await enteredRaffle({ draw_beacon_round: 'drand quicknet round 4242' });
    await close(id);
    const res = await draw(id, { winners: 3, beacon: 'drand-quicknet-4242' }).expect(201);
    const proof = await proofOf(id);
    const csv = await csvOf(id);

    expect(proof.algorithm).toBe('hmac-sha256-rejection-v1');
    expect(sha256(Buffer.from(proof.seed ?? '', 'hex'))).toBe(proof.seed_hash);
    expect(sha256(csv)).toBe(proof.ticket_list_hash);
    expect(proof.beacon).toBe('drand-quicknet-4242');
    expect(proof.beacon_round).toBe('drand quicknet round 4242');
    const expected = independentDraw(
      proof.seed ?? '',
      id,
      proof.ticket_list_hash ?? '',
      proof.beacon,
      csv,
      3,
    );
    expect(proof.winners).toEqual(expected);
    expect(new Set(expected.map((x) => x.entry_id)).size).toBe(3);

    // Stored with the spec's Raffle winner fields; the public sees first name and county only.
    const body = res.body as { winners: Array<Record<string, unknown>>; winner_names: string };
    expect(body.winners.map((x) => x.entry_id)).toEqual(expected.map((x) => x.entry_id));
    for (const winner of body.winners)
      expect(Object.keys(winner).sort()).toEqual(
        [
          'id',
          'raffle_id',
          'entry_id',
          'user_id',
          'site_id',
          'giveaway',
          'giveaway_reference',
          'prize_description',
          'image',
          'date_won',
          'claimed_at',
          'created_at',
          'claimed',
          // The spec's nested form lists them; never expanded.
          'user',
          'entry',
          'raffle',
        ].sort(),
      );
    for (const winner of body.winners)
      expect(winner).toMatchObject({ user: null, entry: null, raffle: null });
    const publicList = (await api(w.t.app).get(`/raffles/${id}/winners`).expect(200)).body as Array<
      Record<string, unknown>
    >;
    expect(publicList.map((x) => x.winner_name)).toEqual(body.winner_names.split(', '));
    for (const x of publicList) {
      expect(x.winner_name).toMatch(/^(Alice|Bob|Carol|Dan|Eve) from (Kent|Devon|Fife|Powys|Antrim)$/);
      expect(x).not.toHaveProperty('user_id');
    }
    expect(JSON.stringify(publicList)).not.toMatch(/Private|@/);
    const raffle = (await api(w.t.app).get(`/raffles/${id}`).expect(200)).body as Record<string, unknown>;
    expect(raffle).toMatchObject({ is_drawn: true, closed: true, winner_names: body.winner_names });
    expect(raffle.drawn_at).toEqual(expect.any(String));

    // Each winner is told by e-mail (a mail job queued with the draw).
    const winnerUsers = new Set(body.winners.map((x) => x.user_id));
    for (const p of people.filter((x) => winnerUsers.has(x.user.id)))
      expect((await mailJobsTo(w.t, p.email)).length).toBeGreaterThanOrEqual(1);
    const [kinds] = await w.t.db.query<Array<{ n: string }>>(
      `SELECT count(*) AS n FROM pgboss.job WHERE name = 'mail.send' AND data->>'kind' = 'raffle_winner'
          AND data->>'user_id' = ANY($1::text[])`,
      [[...winnerUsers]],
    );
    expect(Number(kinds.n)).toBe(3);
  });

  it('lets postal entries win on equal terms: every entry can be drawn', async () => {
    const { id } = await enteredRaffle();
    await close(id);
    await draw(id, { winners: 100 }).expect(201);
    const proof = await proofOf(id);
    const methods = await w.t.db.query<Array<{ id: string; method: string }>>(
      `SELECT id, method FROM raffle_entries WHERE raffle_id = $1`,
      [id],
    );
    // Winners stop when every entry has won: all six, the three postal ones included.
    expect(proof.winners).toHaveLength(6);
    expect(new Set(proof.winners.map((x) => x.entry_id))).toEqual(new Set(methods.map((m) => m.id)));
    expect(proof.winners).toEqual(
      independentDraw(proof.seed ?? '', id, proof.ticket_list_hash ?? '', null, await csvOf(id), 100),
    );
  });

  it('refuses a draw of an open raffle, a second draw, and a draw by a non-admin', async () => {
    const { id, people } = await enteredRaffle();
    expect((await draw(id, { winners: 1 }).expect(409)).body.code).toBe('RAFFLE_NOT_CLOSED');
    await close(id);
    await api(w.t.app).as(people[0].token).post(`/admin/raffles/${id}/draw`, { winners: 1 }).expect(403);
    await api(w.t.app).post(`/admin/raffles/${id}/draw`, { winners: 1 }).expect(401);
    await draw(id, { winners: 0 }).expect(400);
    await draw(id, { winners: 1 }).expect(201);
    const first = await proofOf(id);
    expect((await draw(id, { winners: 1 }).expect(409)).body.code).toBe('ALREADY_DRAWN');
    expect(await proofOf(id)).toEqual(first);
  });

  it('draws once when two draws race', async () => {
    const { id } = await enteredRaffle({ draw_beacon_round: 'drand quicknet round 77' });
    await close(id);
    const results = await Promise.all([
      draw(id, { winners: 2, beacon: 'value-77' }),
      draw(id, { winners: 2, beacon: 'other' }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    const [rows] = await w.t.db.query<Array<{ n: string }>>(
      `SELECT count(*) AS n FROM raffle_winners WHERE raffle_id = $1`,
      [id],
    );
    expect(Number(rows.n)).toBe(2);
    const proof = await proofOf(id);
    const won = results.find((r) => r.status === 201)?.body as { winners: Array<{ entry_id: string }> };
    expect(proof.winners.map((x) => x.entry_id)).toEqual(won.winners.map((x) => x.entry_id));
  });

  it('lets the winner claim the prize once; admins see what is unclaimed', async () => {
    const { id, people } = await enteredRaffle();
    await close(id);
    const drawn = (await draw(id, { winners: 1 }).expect(201)).body as {
      winners: Array<{ id: string; user_id: string }>;
    };
    const prize = drawn.winners[0];
    const winner = people.find((p) => p.user.id === prize.user_id) as MadeUser;
    const other = people.find((p) => p.user.id !== prize.user_id) as MadeUser;
    const unclaimed = async () =>
      (
        (await admin().get('/admin/raffle-winners/unclaimed?limit=100').expect(200)).body as Array<{
          id: string;
        }>
      ).map((x) => x.id);
    expect(await unclaimed()).toContain(prize.id);
    await api(w.t.app).as(other.token).post(`/raffles/${id}/winners/${prize.id}/claim`).expect(404);
    const claimed = await api(w.t.app)
      .as(winner.token)
      .post(`/raffles/${id}/winners/${prize.id}/claim`)
      .expect(201);
    expect(claimed.body).toMatchObject({ id: prize.id, claimed: true, claimed_at: expect.any(String) });
    const again = await api(w.t.app)
      .as(winner.token)
      .post(`/raffles/${id}/winners/${prize.id}/claim`)
      .expect(409);
    expect(again.body.code).toBe('PRIZE_ALREADY_CLAIMED');
    expect(await unclaimed()).not.toContain(prize.id);
  });

  it('closes raffles whose end date passed by the raffles.close job, publishing their ticket list', async () => {
    const { id } = await enteredRaffle();
    await w.t.db.query(
      `UPDATE raffles SET end_date = now() - interval '1 minute', start_date = now() - interval '2 days' WHERE id = $1`,
      [id],
    );
    expect(await runJob(w, 'raffles.close')).toBeGreaterThanOrEqual(1);
    const proof = await proofOf(id);
    expect(proof.ticket_list_hash).toBe(sha256(await csvOf(id)));
    const raffle = (await api(w.t.app).get(`/raffles/${id}`).expect(200)).body as Record<string, unknown>;
    expect(raffle).toMatchObject({ closed: true, is_drawn: false, can_join: false });
  });

  describe('a paid entry refunded whole', () => {
    /** `quantity` tickets bought and paid for by `buyer`; answers the order's and the entry's ids. */
    const bought = async (raffleId: string, itemId: string, buyer: MadeUser, quantity: number) => {
      const order = await orderAsUser(w, buyer.token, itemId, { quantity });
      w.fakes.gatewayOne.complete(order.checkout_id);
      await confirm(w, order.order_id).expect(200);
      const [entry] = await w.t.db.query<Array<{ id: string }>>(
        `SELECT id FROM raffle_entries WHERE raffle_id = $1 AND payment_transaction_id = $2`,
        [raffleId, order.order_id],
      );
      return { orderId: order.order_id, entryId: entry.id };
    };
    const refund = (orderId: string) =>
      admin()
        .post(`/admin/payments/${orderId}/refund`, { reason: 'Customer asked for the money back' })
        .expect(200)
        .expect((r) => expect(r.body.status).toBe('refunded'));
    const entriesOf = (csv: string) =>
      csv
        .split('\n')
        .slice(1)
        .filter(Boolean)
        .map((l) => l.split(',')[2]);

    it('before the close is left out of the ticket list and can never be drawn; the buyer may enter again', async () => {
      const r = await raffleOn(w, { total_entries_available: 100, max_entries: 40 });
      const [buyer, other, last] = [
        await member('Fay', 'Kent'),
        await member('Gus', 'Devon'),
        await member('Hal', 'Fife'),
      ];
      await postal(r.id, other, 2);
      const refunded = await bought(r.id, r.item_id, buyer, 40);
      const standing = (await postal(r.id, last, 1)).body.id as string;
      await refund(refunded.orderId);
      // All of their money is back, so their 40 tickets leave the draw, and their cap is theirs again.
      const again = await bought(r.id, r.item_id, buyer, 40);
      const raffle = (await api(w.t.app).get(`/raffles/${r.id}`).expect(200)).body as Record<string, number>;
      // The refunded range is spent, never sold again: tickets stay numbered 1..83 without reuse.
      expect(raffle.current_entries).toBe(83);
      expect(raffle.tickets_left).toBe(17);
      await close(r.id);
      const csv = await csvOf(r.id);
      expect(csv).not.toContain(refunded.entryId);
      expect(
        csv
          .split('\n')
          .slice(1, -1)
          .map((l) => l.split(',').slice(0, 2).join('-')),
      ).toEqual(['1-2', '43-43', '44-83']);
      const body = (await draw(r.id, { winners: 10 }).expect(201)).body as {
        winners: Array<{ entry_id: string }>;
      };
      // Every entry still standing wins (three), the refunded one never.
      expect(body.winners.map((x) => x.entry_id).sort()).toEqual(entriesOf(csv).sort());
      expect(body.winners.map((x) => x.entry_id)).not.toContain(refunded.entryId);
      expect(entriesOf(csv)).toContain(again.entryId);
      expect(entriesOf(csv)).toContain(standing);
      // N is still every ticket sold, the refunded ones a gap anyone can see; the proof checks out.
      expect((await proofOf(r.id)).ticket_count).toBe(83);
      const run = await verify(`${baseUrl}/raffles/${r.id}/draw-proof`);
      expect(run.code).toBe(0);
    });

    it('before its instant-win check ran wins no instant prize', async () => {
      const r = await raffleOn(w, {
        total_entries_available: 10,
        instant_wins: [{ prize: 'A hoodie', count: 10 }], // every ticket wins
      });
      const buyer = await member('Jo', 'Kent');
      const refunded = await bought(r.id, r.item_id, buyer, 2); // its e-mail job (and check) not run yet
      await refund(refunded.orderId);
      await w.t.drain();
      await runJob(w, 'raffles.close');
      await w.t.drain();
      expect(await w.t.db.query(`SELECT ticket FROM raffle_winners WHERE raffle_id = $1`, [r.id])).toEqual(
        [],
      );
      const shown = (await api(w.t.app).get(`/raffles/${r.id}`).expect(200)).body as Record<string, unknown>;
      expect(shown.instant_wins).toEqual([{ prize: 'A hoodie', count: 10, left: 10 }]);
      // A standing entry still wins what its tickets cover.
      const kept = await bought(r.id, r.item_id, await member('Kit', 'Kent'), 1);
      await w.t.drain();
      expect(await w.t.db.query(`SELECT entry_id FROM raffle_winners WHERE raffle_id = $1`, [r.id])).toEqual([
        { entry_id: kept.entryId },
      ]);
    });

    it('after the close stays in the published ticket list and the draw', async () => {
      const r = await raffleOn(w, { total_entries_available: 100 });
      const buyer = await member('Ida', 'Kent');
      const late = await bought(r.id, r.item_id, buyer, 3);
      await close(r.id);
      const published = await csvOf(r.id);
      await refund(late.orderId);
      expect(await csvOf(r.id)).toBe(published);
      const body = (await draw(r.id, { winners: 1 }).expect(201)).body as {
        winners: Array<{ entry_id: string }>;
      };
      expect(body.winners.map((x) => x.entry_id)).toEqual([late.entryId]);
    });
  });

  describe('instant wins', () => {
    /** DESIGN §6 "Instant wins", again from the text: the k-th ticket from `<raffle id>|instant|<k>|<j>`. */
    const independentInstant = (
      seedHex: string,
      raffleId: string,
      total: number,
      count: number,
    ): number[] => {
      const max = 2n ** 64n;
      const n = BigInt(total);
      const out: number[] = [];
      for (let k = 0; out.length < count; k++) {
        for (let j = 0; ; j++) {
          const h = createHmac('sha256', Buffer.from(seedHex, 'hex'))
            .update(`${raffleId}|instant|${k}|${j}`)
            .digest();
          const x = h.readBigUInt64BE(0);
          if (x >= max - (max % n)) continue;
          const ticket = Number(x % n) + 1;
          if (!out.includes(ticket)) out.push(ticket);
          break;
        }
      }
      return out;
    };

    it('are found exactly once when 50 buyers race across the winning tickets, and proven after the draw', async () => {
      const r = await raffleOn(w, {
        allow_free_entries: true,
        total_entries_available: 50,
        instant_wins: [
          { prize: '£10 voucher', count: 3 },
          { prize: 'A hoodie', count: 2 },
        ],
      });
      expect(r.instant_wins).toEqual([
        { prize: '£10 voucher', count: 3, left: 3 },
        { prize: 'A hoodie', count: 2, left: 2 },
      ]);
      await admin()
        .put(`/admin/raffles/${r.id}`, { instant_wins: [{ prize: 'More', count: 9 }] })
        .expect(409)
        .expect((res) => expect(res.body.code).toBe('INSTANT_WINS_FIXED'));
      const buyers = await Promise.all(Array.from({ length: 50 }, (_, i) => member(`Buyer${i}`, 'Kent')));
      const answers = await Promise.all(
        buyers.map((b) =>
          api(w.t.app).as(b.token).post(`/raffles/${r.id}/entries`, { method: 'free', quantity: 1 }),
        ),
      );
      expect(answers.every((a) => a.status === 201)).toBe(true);
      // The checks race too: every entry checked twice at once, then again by its e-mail job.
      const entries = await w.t.db.query<CheckedEntry[]>(
        `SELECT id, raffle_id, user_id, site_id, ticket_from, ticket_to FROM raffle_entries WHERE raffle_id = $1`,
        [r.id],
      );
      const checker = w.t.app.get(InstantWinsService);
      const found = await Promise.all([...entries, ...entries].map((e) => checker.check(e)));
      expect(found.reduce((sum, n) => sum + n, 0)).toBe(5);
      await w.t.drain();
      // The sweep of the close job finds nothing more: each ticket was taken once.
      await runJob(w, 'raffles.close');
      await w.t.drain();

      const won = await w.t.db.query<Array<{ ticket: number; entry_id: string; prize_description: string }>>(
        `SELECT ticket, entry_id, prize_description FROM raffle_winners WHERE raffle_id = $1 AND giveaway = 'instant'
          ORDER BY ticket`,
        [r.id],
      );
      expect(won).toHaveLength(5);
      expect(new Set(won.map((x) => x.ticket)).size).toBe(5);
      for (const x of won) {
        const [entry] = await w.t.db.query<Array<{ ticket_from: number; ticket_to: number }>>(
          `SELECT ticket_from, ticket_to FROM raffle_entries WHERE id = $1`,
          [x.entry_id],
        );
        expect(entry.ticket_from <= x.ticket && x.ticket <= entry.ticket_to).toBe(true);
      }
      const [mails] = await w.t.db.query<Array<{ n: string }>>(
        `SELECT count(*) AS n FROM pgboss.job WHERE name = 'mail.send' AND data->>'kind' = 'raffle_winner'
            AND data->'variables'->>'instant' = 'true' AND data->>'user_id' = ANY($1::text[])`,
        [buyers.map((b) => b.user.id)],
      );
      expect(Number(mails.n)).toBe(5);
      const shown = (await api(w.t.app).get(`/raffles/${r.id}`).expect(200)).body as Record<string, unknown>;
      expect(shown.instant_wins).toEqual([
        { prize: '£10 voucher', count: 3, left: 0 },
        { prize: 'A hoodie', count: 2, left: 0 },
      ]);
      // Before the draw the proof keeps the winning tickets secret.
      expect((await proofOf(r.id)).instant_wins).toEqual([]);

      // Sold out (closed by the last ticket), drawn: the seed proves the instant-win tickets.
      await draw(r.id, { winners: 1 }).expect(201);
      const proof = (await proofOf(r.id)) as Proof & { instant_win_total: number };
      expect(proof.instant_win_total).toBe(50);
      const fixed = independentInstant(proof.seed ?? '', r.id, 50, 5);
      expect(proof.instant_wins.map((x) => x.ticket)).toEqual([...fixed].sort((a, b) => a - b));
      expect(won.map((x) => x.ticket)).toEqual([...fixed].sort((a, b) => a - b));
      const prizeOf = new Map(fixed.map((t, k) => [t, k < 3 ? '£10 voucher' : 'A hoodie']));
      for (const x of won) expect(x.prize_description).toBe(prizeOf.get(x.ticket));
      const run = await verify(`${baseUrl}/raffles/${r.id}/draw-proof`);
      expect(run.out).toMatch(/5 instant-win ticket\(s\) recomputed/);
      expect(run.code).toBe(0);
    });
  });

  (onPostgres ? it : it.skip)(
    'closes due raffles in id order, so a void holding two of them cannot deadlock with the close',
    async () => {
      const made = [await raffleOn(w), await raffleOn(w)].map((r) => r.id);
      const [low, high] = [...made].sort();
      // Both due; the lower id's row written last, so a scan of the table meets the higher id first.
      for (const id of [high, low])
        await w.t.db.query(
          `UPDATE raffles SET end_date = now() - interval '1 minute', start_date = now() - interval '1 day'
            WHERE id = $1`,
          [id],
        );
      // A void (an account's deletion) holds its raffles FOR SHARE in id order: the lower one first.
      const voiding = new Client({ connectionString: process.env.E2E_DATABASE_URL });
      await voiding.connect();
      try {
        await voiding.query('BEGIN');
        await voiding.query(`SELECT 1 FROM raffles WHERE id = $1 FOR SHARE`, [low]);
        const closing = runJob(w, 'raffles.close');
        await untilSomeoneWaits(voiding); // the close waits on the lower raffle
        await voiding.query(`SELECT 1 FROM raffles WHERE id = $1 FOR SHARE`, [high]);
        await voiding.query('COMMIT');
        await closing;
      } finally {
        await voiding.end();
      }
      const rows = await w.t.db.query<Array<{ closed: boolean }>>(
        `SELECT closed FROM raffles WHERE id = ANY($1::uuid[])`,
        [made],
      );
      expect(rows.map((r) => r.closed)).toEqual([true, true]);
    },
  );

  describe('the verify script', () => {
    let id: string;
    let proofText: string;
    let csv: string;
    let dir: string;

    beforeAll(async () => {
      ({ id } = await enteredRaffle({ draw_beacon_round: 'drand quicknet round 1' }));
      await close(id);
      await draw(id, { winners: 2, beacon: 'drand-1' }).expect(201);
      proofText = JSON.stringify(await proofOf(id));
      csv = await csvOf(id);
      dir = await mkdtemp(join(tmpdir(), 'verify-draw-'));
    });

    it('passes on a drawn raffle, reading its public URLs', async () => {
      const run = await verify(`${baseUrl}/raffles/${id}/draw-proof`);
      expect(run.out).toMatch(/OK +seed/);
      expect(run.code).toBe(0);
    });

    it('fails on a tampered ticket list', async () => {
      await writeFile(join(dir, 'proof.json'), proofText);
      const lines = csv.split('\n');
      [lines[1], lines[2]] = [lines[2], lines[1]];
      await writeFile(join(dir, 'swapped.csv'), lines.join('\n'));
      const run = await verify(join(dir, 'proof.json'), join(dir, 'swapped.csv'));
      expect(run.out).toMatch(/FAIL ticket list/);
      expect(run.code).toBe(1);
      // Saved untouched copies pass.
      await writeFile(join(dir, 'tickets.csv'), csv);
      expect((await verify(join(dir, 'proof.json'), join(dir, 'tickets.csv'))).code).toBe(0);
    });

    it('fails on a tampered winner', async () => {
      const proof = JSON.parse(proofText) as Proof;
      const entries = csv
        .split('\n')
        .slice(1)
        .filter(Boolean)
        .map((l) => l.split(',')[2]);
      const loser = entries.find((e) => !proof.winners.some((x) => x.entry_id === e)) as string;
      proof.winners[0] = { ...proof.winners[0], entry_id: loser };
      await writeFile(join(dir, 'tampered.json'), JSON.stringify(proof));
      await writeFile(join(dir, 'tickets.csv'), csv);
      const run = await verify(join(dir, 'tampered.json'), join(dir, 'tickets.csv'));
      expect(run.out).toMatch(/FAIL winners/);
      expect(run.code).toBe(1);
    });

    it('fails on a seed that does not match its commitment', async () => {
      const proof = JSON.parse(proofText) as Proof;
      proof.seed = 'ff'.repeat(32);
      await writeFile(join(dir, 'seed.json'), JSON.stringify(proof));
      await writeFile(join(dir, 'tickets.csv'), csv);
      const run = await verify(join(dir, 'seed.json'), join(dir, 'tickets.csv'));
      expect(run.out).toMatch(/FAIL seed/);
      expect(run.code).toBe(1);
    });
  });

  describe('what the draw alone decides', () => {
    it('takes no winner_names from an admin (400): only the draw writes them, from the winners drawn', async () => {
      const { id } = await enteredRaffle();
      const typed = { winner_names: 'Mallory Fakename from 1 High Street' };
      const before = (await admin().put(`/admin/raffles/${id}`, typed).expect(400)).body;
      expect(JSON.stringify(before.errors)).toContain('winner_names');
      const raffle = (await api(w.t.app).get(`/raffles/${id}`).expect(200)).body as Record<string, unknown>;
      expect(raffle.winner_names).toBeNull();
      await close(id);
      const drawn = (await draw(id, { winners: 1 }).expect(201)).body as { winner_names: string };
      await admin().put(`/admin/raffles/${id}`, typed).expect(400);
      const after = (await api(w.t.app).get(`/raffles/${id}`).expect(200)).body as Record<string, unknown>;
      expect(after.winner_names).toBe(drawn.winner_names);
      const body = { ...raffleBody(), ...typed };
      await admin().post('/admin/raffles', body).expect(400);
    });

    it('takes only the beacon announced before the close: none chosen at the draw, none skipped', async () => {
      const plain = await enteredRaffle();
      await close(plain.id);
      const chosen = await draw(plain.id, { winners: 1, beacon: 'a-value-that-suits-me' }).expect(422);
      expect(chosen.body.code).toBe('BEACON_NOT_ANNOUNCED');
      expect((await proofOf(plain.id)).seed).toBeNull(); // nothing drawn, nothing revealed
      await draw(plain.id, { winners: 1 }).expect(201);

      const announced = await enteredRaffle({ draw_beacon_round: 'drand quicknet round 99' });
      const shown = (await api(w.t.app).get(`/raffles/${announced.id}`).expect(200)).body;
      expect(shown.draw_beacon_round).toBe('drand quicknet round 99'); // public before the close
      await admin()
        .put(`/admin/raffles/${announced.id}`, { draw_beacon_round: 'drand quicknet round 100' })
        .expect(200);
      await close(announced.id);
      const moved = await admin()
        .put(`/admin/raffles/${announced.id}`, { draw_beacon_round: 'drand quicknet round 101' })
        .expect(409);
      expect(moved.body.code).toBe('ALREADY_CLOSED');
      expect((await draw(announced.id, { winners: 1 }).expect(422)).body.code).toBe('BEACON_REQUIRED');
      await draw(announced.id, { winners: 1, beacon: 'value-of-round-100' }).expect(201);
      expect(await proofOf(announced.id)).toMatchObject({
        beacon_round: 'drand quicknet round 100',
        beacon: 'value-of-round-100',
        closed_at: expect.any(String), // a verifier checks the round came after it
      });

      // Sales over, the close job not yet run: the ticket list is final already, and so is the round.
      const ended = await enteredRaffle({ draw_beacon_round: 'drand quicknet round 500' });
      await w.t.db.query(`UPDATE raffles SET end_date = now() - interval '1 minute' WHERE id = $1`, [
        ended.id,
      ]);
      const late = await admin()
        .put(`/admin/raffles/${ended.id}`, { draw_beacon_round: 'drand quicknet round 1' })
        .expect(409);
      expect(late.body.code).toBe('SALES_ENDED');
    });

    it('refuses (400) two instant-win lines of one prize: each would count the other’s wins as its own', async () => {
      const body = raffleBody();
      const res = await admin()
        .post('/admin/raffles', {
          ...body,
          instant_wins: [
            { prize: 'A hoodie', count: 2 },
            { prize: ' A hoodie', count: 2 },
          ],
        })
        .expect(400);
      expect(res.body.errors).toEqual([expect.objectContaining({ field: 'instant_wins' })]);
    });

    it('pages the public winners: draw winners in draw order, then instant wins, none skipped or repeated', async () => {
      const { id } = await enteredRaffle();
      await close(id);
      await draw(id, { winners: 3 }).expect(201);
      // Instant wins on tickets of the winning entries (as a sale would have made them), copied from the draw's.
      await w.t.db.query(
        `INSERT INTO raffle_winners (raffle_id, entry_id, user_id, site_id, giveaway, prize_description, ticket,
                                     public_name, date_won)
         SELECT w.raffle_id, w.entry_id, w.user_id, w.site_id, 'instant', 'A hoodie', t, w.public_name, now()
           FROM raffle_winners w JOIN raffle_entries e ON e.id = w.entry_id,
                generate_series(e.ticket_from, e.ticket_to) t
          WHERE w.raffle_id = $1 AND w.giveaway = 'draw'`,
        [id],
      );
      try {
        const expected = (
          await w.t.db.query<Array<{ id: string }>>(
            `SELECT id FROM raffle_winners WHERE raffle_id = $1
              ORDER BY giveaway, draw_index NULLS LAST, ticket`,
            [id],
          )
        ).map((x) => x.id);
        expect(expected.length).toBeGreaterThan(4);
        const seen: string[] = [];
        let url: string | undefined = `/raffles/${id}/winners?limit=2`;
        while (url) {
          const page = await api(w.t.app).get(url).expect(200);
          seen.push(...(page.body as Array<{ id: string }>).map((x) => x.id));
          const next = page.headers['x-next-cursor'] as string | undefined;
          url = next ? `/raffles/${id}/winners?limit=2&cursor=${next}` : undefined;
        }
        expect(seen).toEqual(expected);
        await api(w.t.app).get(`/raffles/${id}/winners?limit=0`).expect(400);
      } finally {
        await w.t.db.query(`DELETE FROM raffle_winners WHERE raffle_id = $1 AND giveaway = 'instant'`, [id]);
      }
    });

    it('answers 404 for another site’s raffle when a site is named, as the raffle itself does', async () => {
      const { id } = await enteredRaffle();
      await close(id);
      await draw(id, { winners: 1 }).expect(201);
      const other = await makeSite(w.t);
      for (const path of [
        `/raffles/${id}/winners`,
        `/raffles/${id}/draw-proof`,
        `/raffles/${id}/draw-proof/tickets.csv`,
      ]) {
        await api(w.t.app).get(`${path}?site_id=${other}`).expect(404);
        await api(w.t.app).get(path).set('X-Site-Id', other).expect(404);
        await api(w.t.app).get(`${path}?site_id=${w.site}`).expect(200);
        await api(w.t.app).get(path).expect(200);
      }
    });
  });

  it('leaves every prize held by the entry that holds its ticket (check:integrity)', async () => {
    const outcomes = await runIntegrityChecks(<R>(sql: string) => w.t.db.query<R[]>(sql), w.site);
    expect(outcomes.filter((o) => o.violations).map((o) => o.check.name)).toEqual([]);
    // And the check sees a forged winner.
    const [winner] = await w.t.db.query<Array<{ id: string; ticket: number }>>(
      `SELECT id, ticket FROM raffle_winners WHERE site_id = $1 AND giveaway = 'draw' LIMIT 1`,
      [w.site],
    );
    await w.t.db.query(`UPDATE raffle_winners SET ticket = ticket + 100000 WHERE id = $1`, [winner.id]);
    const forged = await runIntegrityChecks(<R>(sql: string) => w.t.db.query<R[]>(sql), w.site);
    expect(forged.filter((o) => o.violations).map((o) => o.check.name)).toEqual(['prizes_won_fairly']);
    await w.t.db.query(`UPDATE raffle_winners SET ticket = $2 WHERE id = $1`, [winner.id, winner.ticket]);
  });
});
