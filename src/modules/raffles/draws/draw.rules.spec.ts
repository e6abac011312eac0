import { createHash } from 'node:crypto';
import {
  assignInstantPrizes,
  beaconRefusal,
  drawTicket,
  drawWinners,
  instantWinTickets,
  publicWinnerName,
  sampleTicket,
  ticketCsvLine,
  TICKET_CSV_HEADER,
} from './draw.rules';

// Vectors computed once (with a separate throwaway script) and frozen: a change to the algorithm breaks them.
const seed = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';
const raffleId = '11111111-2222-4333-8444-555555555555';
const ticketListHash = 'ab'.repeat(32);
const input = (over: object = {}) => ({
  seed,
  raffleId,
  ticketListHash,
  beacon: null,
  ticketCount: 1000,
  ...over,
});

describe('draw rules (DESIGN §6)', () => {
  it('draws the frozen tickets for a fixed seed, with no beacon', () => {
    expect(Array.from({ length: 8 }, (_, i) => drawTicket(input(), i))).toEqual([
      541, 480, 327, 178, 532, 988, 643, 51,
    ]);
  });

  it('puts the beacon into the message', () => {
    const drawn = Array.from({ length: 5 }, (_, i) =>
      drawTicket(input({ beacon: 'drand-123', ticketCount: 1_000_000 }), i),
    );
    expect(drawn).toEqual([619997, 544175, 363771, 294605, 70963]);
  });

  it('skips a ticket whose entry has already won: winners are distinct entries', async () => {
    // Tickets drawn over 3: 1, 1, 2, 1, 3, … — entries A (1-2) and B (3).
    expect(Array.from({ length: 6 }, (_, i) => drawTicket(input({ ticketCount: 3 }), i))).toEqual([
      1, 1, 2, 1, 3, 1,
    ]);
    const winners = await drawWinners(input({ ticketCount: 3 }), 5, 2, (t) =>
      Promise.resolve(t <= 2 ? 'A' : 'B'),
    );
    expect(winners).toEqual([
      { index: 0, ticket: 1, entry_id: 'A' },
      { index: 4, ticket: 3, entry_id: 'B' },
    ]);
  });

  it('takes ticket (x mod N) + 1 when x is below the rejection limit', () => {
    // Every value fits when N = 1: the only ticket is 1; N = 2^k takes the low bits (never rejects).
    expect(sampleTicket(Buffer.from(seed, 'hex'), 1, (j) => `m|${j}`)).toBe(1);
    const messages: string[] = [];
    sampleTicket(Buffer.from(seed, 'hex'), 1024, (j) => {
      messages.push(`m|${j}`);
      return `m|${j}`;
    });
    expect(messages).toEqual(['m|0']);
  });

  it('fixes distinct instant-win tickets from the seed', () => {
    expect(instantWinTickets(seed, raffleId, 50, 5)).toEqual([35, 32, 40, 15, 26]);
    expect(new Set(instantWinTickets(seed, raffleId, 5, 9)).size).toBe(5);
  });

  it('gives the first tickets drawn the first prize, and so on', () => {
    expect(
      assignInstantPrizes(
        [35, 32, 40],
        [
          { prize: 'A', count: 2 },
          { prize: 'B', count: 5 },
        ],
      ),
    ).toEqual([
      { ticket: 35, prize: 'A' },
      { ticket: 32, prize: 'A' },
      { ticket: 40, prize: 'B' },
    ]);
  });

  it('writes the ticket list byte for byte', () => {
    const csv = TICKET_CSV_HEADER + ticketCsvLine(1, 3, 'e1') + ticketCsvLine(4, 4, 'e2');
    expect(csv).toBe('ticket_from,ticket_to,entry_id\n1,3,e1\n4,4,e2\n');
    expect(createHash('sha256').update(csv).digest('hex')).toHaveLength(64);
  });

  it('shows a winner by first name and county only', () => {
    expect(publicWinnerName('Sam Jones', 'Kent')).toBe('Sam from Kent');
    expect(publicWinnerName(null, 'Kent')).toBe('A winner from Kent');
    // Stored before profile fields were held to one line: shown on one line all the same.
    expect(publicWinnerName('Sam\r\nBcc', 'Kent\r\n\u0007Bob Smith')).toBe('Sam from Kent Bob Smith');
    expect(publicWinnerName('Sam', null)).toBe('Sam');
  });
});

describe('the beacon a draw may take (beaconRefusal)', () => {
  it('takes the announced round’s value, and none when none was announced', () => {
    expect(beaconRefusal('drand quicknet round 9', 'a1b2')).toBeNull();
    expect(beaconRefusal(null, null)).toBeNull();
  });

  it('refuses a beacon chosen at the draw, and a draw that skips the announced one', () => {
    expect(beaconRefusal(null, 'a1b2')?.code).toBe('BEACON_NOT_ANNOUNCED');
    expect(beaconRefusal('drand quicknet round 9', null)?.code).toBe('BEACON_REQUIRED');
  });
});
