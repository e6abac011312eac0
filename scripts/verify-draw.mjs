#!/usr/bin/env node
// Checks a raffle's draw from public data alone (docs/FAIR-DRAWS.md). Plain Node (20+), no dependencies.
//
//   node scripts/verify-draw.mjs <proof URL or file> [tickets.csv URL or file]
//
// The proof is `GET /raffles/{id}/draw-proof`; the ticket list defaults to `<proof URL>/tickets.csv`.
// It prints whether (1) the revealed seed matches the hash committed at publication, (2) the ticket list
// matches the hash published at the close, and (3) the winners follow from them; it exits 0 only when all
// three hold (1 when one fails, 2 when the inputs cannot be read).
import { createHash, createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';

async function load(source) {
  if (/^https?:\/\//.test(source)) {
    const res = await fetch(source);
    if (!res.ok) throw new Error(`${source}: HTTP ${res.status}`);
    return Buffer.from(await res.arrayBuffer());
  }
  return readFile(source);
}

const TWO_64 = 1n << 64n;

/** §6 step 3: the ticket drawn at index i (rejection sampling over 1..n). */
function drawTicket(seed, raffleId, listHash, beacon, i, n) {
  const size = BigInt(n);
  const limit = TWO_64 - (TWO_64 % size);
  for (let j = 0; ; j++) {
    const message = `${raffleId}|${listHash}|${beacon ?? ''}|${i}|${j}`;
    const x = createHmac('sha256', seed).update(message, 'utf8').digest().readBigUInt64BE(0);
    if (x < limit) return Number(x % size) + 1;
  }
}

/** The instant-win tickets fixed at publication: message `<raffle id>|instant|<k>|<j>`, distinct. */
function instantTickets(seed, raffleId, total, count) {
  const out = [];
  const taken = new Set();
  for (let k = 0; out.length < Math.min(count, total); k++) {
    const size = BigInt(total);
    const limit = TWO_64 - (TWO_64 % size);
    let ticket;
    for (let j = 0; ; j++) {
      const x = createHmac('sha256', seed)
        .update(`${raffleId}|instant|${k}|${j}`, 'utf8')
        .digest()
        .readBigUInt64BE(0);
      if (x < limit) {
        ticket = Number(x % size) + 1;
        break;
      }
    }
    if (taken.has(ticket)) continue;
    taken.add(ticket);
    out.push(ticket);
  }
  return out;
}

/** The CSV's lines as [from, to, entry id], checked for shape and order. */
function parseTickets(text) {
  const lines = text.split('\n');
  if (lines[0] !== 'ticket_from,ticket_to,entry_id') throw new Error('the ticket list has the wrong header');
  if (lines[lines.length - 1] !== '') throw new Error('the ticket list does not end with a line end');
  const rows = [];
  for (const line of lines.slice(1, -1)) {
    const [from, to, id] = line.split(',');
    const row = [Number(from), Number(to), id];
    if (!Number.isInteger(row[0]) || !Number.isInteger(row[1]) || !id || row[1] < row[0])
      throw new Error(`a malformed line: ${line}`);
    if (rows.length && row[0] <= rows[rows.length - 1][1]) throw new Error(`lines out of order at: ${line}`);
    rows.push(row);
  }
  return rows;
}

/** The entry holding a ticket (binary search), or null for a ticket on no line. */
function entryOf(rows, ticket) {
  let lo = 0;
  let hi = rows.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (rows[mid][1] < ticket) lo = mid + 1;
    else if (rows[mid][0] > ticket) hi = mid - 1;
    else return rows[mid][2];
  }
  return null;
}

async function main() {
  const [proofSource, csvArg] = process.argv.slice(2);
  if (!proofSource) {
    console.error('usage: node scripts/verify-draw.mjs <proof URL or file> [tickets.csv URL or file]');
    return 2;
  }
  const csvSource = csvArg ?? `${proofSource.replace(/\/$/, '')}/tickets.csv`;
  let proof;
  let csv;
  try {
    proof = JSON.parse((await load(proofSource)).toString('utf8'));
    csv = await load(csvSource);
  } catch (error) {
    console.error(`cannot read the inputs: ${error.message}`);
    return 2;
  }
  if (proof.algorithm !== 'hmac-sha256-rejection-v1') {
    console.error(`unknown algorithm ${proof.algorithm}`);
    return 2;
  }
  const results = [];
  const check = (name, ok, detail) => {
    results.push(ok);
    console.log(`${ok ? 'OK  ' : 'FAIL'} ${name}${detail ? `: ${detail}` : ''}`);
  };

  const seed =
    typeof proof.seed === 'string' && /^[0-9a-f]{64}$/.test(proof.seed)
      ? Buffer.from(proof.seed, 'hex')
      : null;
  const seedHash = seed ? createHash('sha256').update(seed).digest('hex') : null;
  check(
    'seed matches the hash committed at publication',
    seed !== null && seedHash === proof.seed_hash,
    seed ? `sha256(seed) = ${seedHash}` : 'the seed is not revealed yet',
  );

  const listHash = createHash('sha256').update(csv).digest('hex');
  check(
    'ticket list matches the hash published at the close',
    listHash === proof.ticket_list_hash,
    `sha256(tickets.csv) = ${listHash}`,
  );

  let winnersOk = false;
  let detail = '';
  try {
    if (!seed) throw new Error('no seed');
    const rows = parseTickets(csv.toString('utf8'));
    const n = proof.ticket_count;
    const expected = [];
    const won = new Set();
    const wanted = Math.min(proof.winners.length, rows.length);
    // The draw stopped at the number of winners asked for (or every entry): recompute as many.
    for (let i = 0; expected.length < wanted; i++) {
      const ticket = drawTicket(seed, proof.raffle_id, proof.ticket_list_hash, proof.beacon, i, n);
      const entry = entryOf(rows, ticket);
      if (entry === null || won.has(entry)) continue;
      won.add(entry);
      expected.push({ index: i, ticket, entry_id: entry });
    }
    const got = proof.winners.map((w) => ({ index: w.index, ticket: w.ticket, entry_id: w.entry_id }));
    winnersOk = JSON.stringify(expected) === JSON.stringify(got) && (got.length > 0 || rows.length === 0);
    detail = winnersOk
      ? `${got.length} winner(s) recomputed`
      : `expected ${JSON.stringify(expected)}, the proof says ${JSON.stringify(got)}`;
    // Instant wins: every ticket fixed at publication follows from the seed (the k-th prize ticket from
    // "<raffle id>|instant|<k>|<j>" over 1..instant_win_total, distinct), listed in ticket order.
    const instant = proof.instant_wins ?? [];
    if (winnersOk && instant.length) {
      const fixed = instantTickets(seed, proof.raffle_id, proof.instant_win_total, instant.length);
      const listed = instant.map((w) => w.ticket);
      const same = JSON.stringify([...fixed].sort((a, b) => a - b)) === JSON.stringify(listed);
      if (!same) {
        winnersOk = false;
        detail = `instant-win tickets ${listed.join(', ')} do not follow from the seed (expected ${[...fixed].sort((a, b) => a - b).join(', ')})`;
      } else detail += `; ${listed.length} instant-win ticket(s) recomputed`;
    }
  } catch (error) {
    detail = error.message;
  }
  check('winners follow from the seed and the ticket list', winnersOk, detail);
  return results.every(Boolean) ? 0 : 1;
}

process.exitCode = await main();
