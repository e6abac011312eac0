import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import type { AddressInfo } from 'node:net';
import { getDataSourceToken } from '@nestjs/typeorm';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { createApplication, type RunningApp } from '#app/bootstrap.js';
import { NO_REQUEST } from '#app/common/http/request-meta.js';
import { OrdersService } from '#app/modules/payments/orders.service.js';
import { RaffleAdminService } from '#app/modules/raffles/raffle-admin.service.js';
import { SitesService } from '#app/modules/sites/sites.service.js';
import { answerParent } from './ipc-child.js';
import type { AppCommand, InitAnswer, PaidOrder } from './purchase-protocol.js';
import { accountMaker } from '../test/support/bench-accounts.js';
import { benchConfig, listenOnLoopback } from './bench-app.js';

/**
 * The app under test, in a process of its own so that its CPU is measured alone (the fake gateway and
 * the load generator run elsewhere). Logs at `info` to standard output, as in production; the
 * orchestrator discards them.
 */
class AppProcess {
  private running?: RunningApp;
  private db?: DataSource;
  private siteId = `bench-${randomBytes(4).toString('hex')}`;
  private profiler?: Session;

  async handle(c: AppCommand): Promise<unknown> {
    switch (c.cmd) {
      case 'init':
        return this.init(c);
      case 'setup':
        return this.setup();
      case 'template':
        return this.template(c.itemId);
      case 'clone':
        return this.clone(c.templateId, c.count);
      case 'trace':
        return this.trace(c.paymentId);
      case 'cpu':
        return { ...process.cpuUsage(), elu: performance.eventLoopUtilization() };
      case 'profile-start':
        return this.profileStart();
      case 'profile-stop':
        return this.profileStop(c.file);
      case 'close':
        await this.running?.close();
        return null;
    }
  }

  private get app(): RunningApp['app'] {
    if (!this.running) throw new Error('not initialised');
    return this.running.app;
  }

  private async init(c: Extract<AppCommand, { cmd: 'init' }>): Promise<InitAnswer> {
    const config = benchConfig('app', {
      databaseUrl: c.databaseUrl,
      gatewayOne: c.gatewayOne,
      gatewayTwo: c.gatewayTwo,
      mailTransport: c.mailTransport,
      jobs: c.jobs,
    });
    this.running = await createApplication(config);
    this.db = this.app.get<DataSource>(getDataSourceToken());
    const url = await listenOnLoopback(this.app);
    const options = this.db.options as { url?: string };
    return { url, databaseUrl: options.url ?? '' };
  }

  /** A site, its admin and one published raffle with room for every benchmark order. */
  private async setup(): Promise<{ raffleId: string; itemId: string }> {
    await this.app.get(SitesService).ensureSite(this.siteId, 'Benchmark', null);
    const admin = await accountMaker(this.app, this.siteId, 'bench.example.com')('admin', 0, 'Bench admin');
    const actor = { id: admin.id, siteId: this.siteId, role: 'admin' as const, email: admin.email, jti: 'b' };
    const raffles = this.app.get(RaffleAdminService);
    const day = 24 * 60 * 60 * 1000;
    const draft = await raffles.create(actor, this.siteId, {
      name: 'Bench raffle',
      currency: 'GBP',
      price_display: 2.5,
      total_entries_available: 10_000_000,
      points_enabled: true,
      start_date: new Date(Date.now() - day).toISOString(),
      end_date: new Date(Date.now() + 30 * day).toISOString(),
    });
    const published = await raffles.publish(actor, this.siteId, draft.id);
    return { raffleId: published.id, itemId: published.item_id };
  }

  /** One real guest order of one ticket through the order service (its checkout opened at the fake). */
  private async template(itemId: string): Promise<PaidOrder> {
    const email = `t${randomBytes(6).toString('hex')}@bench.example.com`;
    const { payment, checkout } = await this.app.get(OrdersService).create(
      undefined,
      {
        gateway: 'gatewayone',
        siteId: this.siteId,
        buyer: { email },
        itemId,
        quantity: 1,
      },
      NO_REQUEST,
    );
    return { paymentId: payment.id, checkoutId: checkout.checkoutId, amount: '2.50', currency: 'GBP', email };
  }

  /**
   * `count` copies of a real pending order, each of a new copy of its buyer, made set-based (orders by
   * the thousand through the order service would take longer than the benchmark itself).
   */
  private async clone(templateId: string, count: number): Promise<PaidOrder[]> {
    const db = this.db!;
    const tag = randomBytes(4).toString('hex');
    const rows = await db.query<Array<{ id: string; checkout_id: string; user_id: string }>>(
      `WITH q AS (SELECT n, gen_random_uuid() AS payment_id, gen_random_uuid() AS user_id
                    FROM generate_series(1, $2::int) AS n),
            u AS (INSERT INTO users
                    SELECT (jsonb_populate_record(NULL::users, to_jsonb(u) || jsonb_build_object(
                              'id', q.user_id, 'email', 'c' || q.user_id || '@bench.example.com',
                              'email_normalized', 'c' || q.user_id || '@bench.example.com'))).*
                      FROM q, users u, payment_transactions t
                     WHERE t.id = $1 AND u.id = t.user_id
                  RETURNING id)
       INSERT INTO payment_transactions
         SELECT (jsonb_populate_record(NULL::payment_transactions, to_jsonb(t) || jsonb_build_object(
                   'id', q.payment_id, 'user_id', q.user_id,
                   'checkout_id', 'bench-' || $3 || '-' || q.n))).*
           FROM q, payment_transactions t
          WHERE t.id = $1 AND (SELECT count(*) FROM u) > 0
       RETURNING id, checkout_id, user_id`,
      [templateId, count, tag],
    );
    return rows.map((r) => ({
      paymentId: r.id,
      checkoutId: r.checkout_id,
      amount: '2.50',
      currency: 'GBP',
      email: `c${r.user_id}@bench.example.com`,
    }));
  }

  /**
   * The SQL statements one confirmation sends, seen where every one of them passes: the pg client's
   * `query` (TypeORM's and raw ones alike). Only this request runs meanwhile.
   */
  private async trace(paymentId: string): Promise<string[]> {
    const seen: string[] = [];
    const original = Client.prototype.query;
    Client.prototype.query = function (this: unknown, ...args: unknown[]) {
      const q = args[0] as string | { text?: string };
      seen.push((typeof q === 'string' ? q : (q.text ?? '')).replace(/\s+/g, ' ').trim());
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof original;
    try {
      const { port } = this.app.getHttpServer().address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/gatewayone/create-order`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ confirmation_only: true, order_id: paymentId }),
      });
      if (res.status !== 200) throw new Error(`trace confirmation answered ${res.status}`);
    } finally {
      Client.prototype.query = original;
    }
    return seen;
  }

  private async profileStart(): Promise<null> {
    this.profiler = new Session();
    this.profiler.connect();
    const post = (method: string, params?: object) =>
      new Promise<unknown>((resolve, reject) =>
        this.profiler!.post(method, params ?? {}, (err, res) => (err ? reject(err) : resolve(res))),
      );
    await post('Profiler.enable');
    await post('Profiler.setSamplingInterval', { interval: 200 });
    await post('Profiler.start');
    return null;
  }

  private async profileStop(file: string): Promise<null> {
    const session = this.profiler;
    if (!session) return null;
    const result = await new Promise<{ profile: object }>((resolve, reject) =>
      session.post('Profiler.stop', (err, res) => (err ? reject(err) : resolve(res))),
    );
    writeFileSync(file, JSON.stringify(result.profile));
    session.disconnect();
    this.profiler = undefined;
    return null;
  }
}

const appProcess = new AppProcess();
answerParent((command: AppCommand) => appProcess.handle(command));
