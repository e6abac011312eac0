import { randomBytes } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { INestApplication } from '@nestjs/common';
import autocannon from 'autocannon';
import { SitesService } from '#app/modules/sites/sites.service.js';
import { accessTokenOf, accountMaker } from './bench-accounts';

/**
 * The mixed workload of issue 15 (`npm run bench:mixed`, and its short form in
 * test/e2e/mixed-load.e2e-spec.ts): members browse raffles, quote, buy and confirm (endpoint 3), claim a
 * discount code and read their rewards summary, all at once. `seedMixedWorld` runs where the app runs
 * (it uses the app's services); `runMixedLoad` where the fake gateway runs (it completes each checkout
 * the moment the order is created, as a shopper paying at once would).
 */
export interface MixedWorld {
  url: string;
  siteId: string;
  adminToken: string;
  tokens: string[];
  raffles: Array<{ id: string; itemId: string }>;
  codeId: string;
}

const DAY = 24 * 60 * 60 * 1000;

async function call<T>(url: string, token: string, method: string, path: string, body?: object): Promise<T> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'x-forwarded-for': `10.5.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/**
 * A site with `members` members (tokens issued, 1,000,000 points each through the admin's adjustment), an
 * admin, `raffles` published raffles with room for every order a run makes, and one multi-claim code at
 * one point a claim. Made through the app's services and its HTTP API at `url`.
 */
export async function seedMixedWorld(
  app: INestApplication,
  url: string,
  opts: { members: number; raffles: number },
): Promise<MixedWorld> {
  const siteId = `mixed-${randomBytes(4).toString('hex')}`;
  await app.get(SitesService).ensureSite(siteId, 'Mixed load', null);
  const make = accountMaker(app, siteId, 'mixed.example.com');
  const adminToken = await accessTokenOf(app, await make('admin', 0));
  const tokens: string[] = [];
  for (let i = 0; i < opts.members; i++) {
    const user = await make('user', i);
    tokens.push(await accessTokenOf(app, user));
    await call(url, adminToken, 'POST', '/admin/rewards/adjust', {
      user_id: user.id,
      amount: 1_000_000,
      reason: 'Mixed load points',
    });
  }
  const raffles: MixedWorld['raffles'] = [];
  for (let i = 0; i < opts.raffles; i++) {
    const draft = await call<{ id: string; item_id: string }>(url, adminToken, 'POST', '/admin/raffles', {
      site_id: siteId,
      name: `Mixed raffle ${i}`,
      currency: 'GBP',
      price_display: 2.5,
      total_entries_available: 10_000_000,
      start_date: new Date(Date.now() - DAY).toISOString(),
      end_date: new Date(Date.now() + (30 + i) * DAY).toISOString(),
      discount_tiers: [{ min_quantity: 5, discount: 10 }],
    });
    await call(url, adminToken, 'POST', `/admin/raffles/${draft.id}/publish`, { site_id: siteId });
    raffles.push({ id: draft.id, itemId: draft.item_id });
  }
  const brand = await call<{ id: string }>(url, adminToken, 'POST', '/admin/discount-brands', {
    site_id: siteId,
    name: 'Mixed brand',
  });
  const code = await call<{ id: string }>(url, adminToken, 'POST', '/discount-codes', {
    site_id: siteId,
    discount_brand_id: brand.id,
    title: '10% off everything',
    code: 'MIXED10',
    points_required: 1,
    allow_multiple_claims: true,
  });
  return { url, siteId, adminToken, tokens, raffles, codeId: code.id };
}

/** The route classes a run reports on, each with its expected status. */
export const ROUTE_CLASSES = {
  list: 200,
  detail: 200,
  quote: 200,
  order: 200,
  confirm: 200,
  claim: 201,
  summary: 200,
} as const;
export type RouteClass = keyof typeof ROUTE_CLASSES;

export interface ClassFigures {
  count: number;
  /** Answers other than the class's expected status, by status. */
  unexpected: Record<string, number>;
  p50: number;
  p99: number;
}

export interface MixedResult {
  rps: number;
  total: number;
  p50: number;
  p99: number;
  errors: number;
  /** Socket errors by code (ECONNRESET, EPIPE…): what `errors` were, for a failure to be read from its log. */
  errorKinds: Record<string, number>;
  /** The longest this process's event loop stalled during the run, in ms (in the e2e test the app's too). */
  maxLoopStallMs: number;
  timeouts: number;
  non2xx: number;
  /** Sequences cut short because an order came back without a checkout (its confirmation not sent). */
  resets: number;
  classes: Record<RouteClass, ClassFigures>;
  /** Orders confirmed with a 200, for the checks afterwards. */
  confirmed: number;
}

const percentile = (sorted: number[], p: number): number =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;

/**
 * One connection's cycle, 13 requests: an order and its confirmation first (so a short or slow run still
 * buys), a claim, 3 lists, 3 raffle pages, 2 quotes, 2 summaries. Each cycle is one member (its token)
 * buying from one raffle; every request comes from an address of its own, so per-IP limits (30 orders a
 * minute) never bite.
 */
const CYCLE: RouteClass[] = [
  'order',
  'confirm',
  'list',
  'detail',
  'quote',
  'summary',
  'claim',
  'list',
  'detail',
  'quote',
  'list',
  'detail',
  'summary',
];

export async function runMixedLoad(
  world: MixedWorld,
  opts: {
    connections: number;
    /** Seconds to run; or, instead, */
    duration?: number;
    /** whole cycles per connection (every route class covered however slow the machine). */
    cycles?: number;
    complete(checkoutId: string): void;
  },
): Promise<MixedResult> {
  let ip = 0;
  let member = 0;
  const latencies = Object.fromEntries(Object.keys(ROUTE_CLASSES).map((k) => [k, [] as number[]])) as Record<
    RouteClass,
    number[]
  >;
  const unexpected = Object.fromEntries(Object.keys(ROUTE_CLASSES).map((k) => [k, {}])) as Record<
    RouteClass,
    Record<string, number>
  >;
  const site = world.siteId;
  type Ctx = Record<string, unknown> & {
    member?: number;
    sentAt?: bigint;
    orderId?: string;
  };
  const spec = (cls: RouteClass): autocannon.RequestSpec => ({
    setupRequest: (req, raw) => {
      const ctx = raw as Ctx;
      // The context is reset at each cycle's start: the member (and raffle) stay fixed per cycle.
      ctx.member ??= member++;
      const m = ctx.member;
      const raffle = world.raffles[m % world.raffles.length];
      const n = ip++;
      const headers: Record<string, string> = {
        ...req.headers,
        'content-type': 'application/json',
        'x-forwarded-for': `10.${100 + ((n >> 16) & 127)}.${(n >> 8) & 255}.${n & 255}`,
        authorization: `Bearer ${world.tokens[m % world.tokens.length]}`,
      };
      let out: typeof req;
      switch (cls) {
        case 'list':
          out = { method: 'GET', path: `/raffles?site_id=${site}` };
          break;
        case 'detail':
          out = { method: 'GET', path: `/raffles/${raffle.id}?site_id=${site}` };
          break;
        case 'quote':
          out = {
            method: 'GET',
            path: `/raffles/${raffle.id}/quote?site_id=${site}&quantity=${1 + (n % 6)}`,
          };
          break;
        case 'order':
          out = {
            method: 'POST',
            path: '/gatewayone/create-order',
            body: JSON.stringify({ item_id: raffle.itemId, site_id: site, quantity: 1 + (n % 3) }),
          };
          break;
        case 'confirm':
          // No order to confirm (the order failed, counted there): start the cycle again.
          if (!ctx.orderId) return undefined;
          out = {
            method: 'POST',
            path: '/gatewayone/create-order',
            body: JSON.stringify({ confirmation_only: true, order_id: ctx.orderId }),
          };
          break;
        case 'claim':
          out = { method: 'POST', path: `/discount-codes/${world.codeId}/claim?site_id=${site}` };
          break;
        case 'summary':
          out = { method: 'GET', path: `/rewards/summary?site_id=${site}` };
          break;
      }
      ctx.sentAt = process.hrtime.bigint();
      return { ...out, headers };
    },
    onResponse: (status, body, raw) => {
      const ctx = raw as Ctx;
      if (ctx.sentAt !== undefined) latencies[cls].push(Number(process.hrtime.bigint() - ctx.sentAt) / 1e6);
      if (status !== ROUTE_CLASSES[cls])
        unexpected[cls][status] = ((unexpected[cls][status] as number | undefined) ?? 0) + 1;
      if (cls === 'order') {
        ctx.orderId = undefined;
        if (status === 200) {
          const answer = JSON.parse(body) as { order_id?: string; checkout_id?: string };
          if (answer.checkout_id && answer.order_id) {
            opts.complete(answer.checkout_id);
            ctx.orderId = answer.order_id;
          }
        }
      }
      if (cls === 'confirm' && status === 200) confirmed++;
    },
  });
  let confirmed = 0;
  const errorKinds: Record<string, number> = {};
  const loop = monitorEventLoopDelay({ resolution: 20 });
  loop.enable();
  const run = autocannon({
    url: world.url,
    connections: opts.connections,
    ...(opts.cycles
      ? { amount: opts.cycles * opts.connections * CYCLE.length }
      : { duration: opts.duration ?? 60 }),
    timeout: 30,
    requests: CYCLE.map(spec),
  });
  run.on('reqError', (e: Error & { code?: string }) => {
    const kind = e.code ?? e.message;
    errorKinds[kind] = (errorKinds[kind] ?? 0) + 1;
  });
  const r = await run;
  loop.disable();
  const classes = {} as Record<RouteClass, ClassFigures>;
  for (const cls of Object.keys(ROUTE_CLASSES) as RouteClass[]) {
    const sorted = latencies[cls].sort((a, b) => a - b);
    classes[cls] = {
      count: sorted.length,
      unexpected: unexpected[cls],
      p50: Number(percentile(sorted, 50).toFixed(1)),
      p99: Number(percentile(sorted, 99).toFixed(1)),
    };
  }
  return {
    rps: r.requests.total / r.duration,
    total: r.requests.total,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors,
    errorKinds,
    maxLoopStallMs: Math.round(loop.max / 1e6),
    timeouts: r.timeouts,
    non2xx: r.non2xx,
    resets: r.resets ?? 0,
    classes,
    confirmed,
  };
}

/** Every problem a run shows: socket errors, timeouts, any answer other than the expected one. */
export function mixedProblems(r: MixedResult): string[] {
  const problems: string[] = [];
  if (r.errors) {
    const kinds = Object.entries(r.errorKinds).map(([kind, n]) => `${kind} × ${n}`);
    problems.push(
      `${r.errors} errors (${kinds.join(', ')}; longest event-loop stall ${r.maxLoopStallMs} ms)`,
    );
  }
  if (r.timeouts) problems.push(`${r.timeouts} timeouts`);
  for (const [cls, f] of Object.entries(r.classes))
    for (const [status, n] of Object.entries(f.unexpected)) problems.push(`${cls}: ${n} × ${status}`);
  // A run that answered nothing (a swamped app) proves nothing: it fails too.
  if (!r.total) problems.push('no request was answered');
  else if (!r.confirmed) problems.push('no order was confirmed');
  return problems;
}

/** One line per route class: how many, p50/p99 (ms, from request built to answer read), what went wrong. */
export function classLines(r: MixedResult): string[] {
  return (Object.entries(r.classes) as Array<[RouteClass, ClassFigures]>).map(([cls, f]) => {
    const bad = Object.entries(f.unexpected)
      .map(([s, n]) => `${n}×${s}`)
      .join(' ');
    return (
      `  ${cls.padEnd(8)} ${String(f.count).padStart(7)} req  p50 ${String(f.p50).padStart(6)} ms  ` +
      `p99 ${String(f.p99).padStart(7)} ms  ${bad ? `UNEXPECTED ${bad}` : 'all as expected'}`
    );
  });
}
