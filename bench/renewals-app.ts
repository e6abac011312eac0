import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { createApplication, type RunningApp } from '#app/bootstrap.js';
import { RenewalsJob } from '#app/modules/subscriptions/jobs/renewals.job.js';
import { TiersService } from '#app/modules/subscriptions/tiers.service.js';
import { SitesService } from '#app/modules/sites/sites.service.js';
import { answerParent } from './ipc-child.js';
import type { RenewalCommand, RenewalRun, Seeded } from './renewals-protocol.js';
import { benchConfig } from './bench-app.js';

/**
 * The app whose renewal run is measured, in a process of its own: its resident memory is the figure, so
 * nothing else (the fake gateway, the orchestration) may live in it. A worker instance's run, called as
 * the scheduler calls it; the jobs it queues (e-mails, points) are left for other workers.
 */
class RenewalsApp {
  private running?: RunningApp;

  async handle(c: RenewalCommand): Promise<unknown> {
    switch (c.cmd) {
      case 'init':
        return this.init(c);
      case 'seed':
        return this.seed(c.count, c.registrationId);
      case 'run':
        return this.run();
      case 'verify':
        return this.verify(c.seeded);
      case 'close':
        await this.running?.close();
        return null;
    }
  }

  private get app(): RunningApp['app'] {
    if (!this.running) throw new Error('not initialised');
    return this.running.app;
  }

  private get db(): DataSource {
    return this.app.get<DataSource>(getDataSourceToken());
  }

  private async init(c: Extract<RenewalCommand, { cmd: 'init' }>): Promise<null> {
    this.running = await createApplication(
      benchConfig('renewals', {
        databaseUrl: c.databaseUrl,
        gatewayOne: c.gatewayOne,
        gatewayTwo: c.gatewayTwo,
      }),
    );
    return null;
  }

  /**
   * `count` active monthly memberships due now, each of its own member, on a new site and tier, made
   * set-based. They share one stored card (the gateway charges it once per renewal all the same).
   */
  private async seed(count: number, registrationId: string): Promise<Seeded> {
    const siteId = `renew-${randomBytes(4).toString('hex')}`;
    await this.app.get(SitesService).ensureSite(siteId, 'Renewals benchmark', null);
    const tier = await this.app.get(TiersService).create(siteId, {
      name: 'gold',
      amount_cents: 999,
      currency: 'GBP',
      entry_credits_per_period: 5,
    });
    await this.db.query(
      `WITH u AS (
         INSERT INTO users (site_id, email, email_normalized, role, signup_source, data_processing_consent, has_consented)
         SELECT $1, 'm' || g || '@bench.example.com', 'm' || g || '@bench.example.com', 'user', 'bench', true, true
           FROM generate_series(1, $3::int) g
         RETURNING id)
       INSERT INTO subscriptions (site_id, user_id, tier_id, status, amount_cents, currency, billing_interval,
                                  entry_credits_per_period, current_period_start, current_period_end,
                                  next_billing_date, subscription_start_date, cooling_off_expiry,
                                  gatewayone_registration_id, streak_months, lifetime_months)
       SELECT $1, u.id, $2, 'active', 999, 'GBP', 'month', 5, now() - interval '1 month', now() - interval '1 minute',
              now() - interval '1 minute', now() - interval '1 month', now() - interval '17 days', $4, 1, 1
         FROM u`,
      [siteId, tier.id, count, registrationId],
    );
    await this.db.query(`ANALYZE users; ANALYZE subscriptions; ANALYZE payment_transactions`);
    return { siteId, tierId: tier.id, count };
  }

  /** One renewal run over everything due, with the process's resident memory sampled throughout. */
  private async run(): Promise<RenewalRun> {
    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 10);
    const cpuBefore = process.cpuUsage();
    const started = process.hrtime.bigint();
    try {
      const renewed = await this.app.get(RenewalsJob).run(new Date());
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const cpu = process.cpuUsage(cpuBefore);
      peak = Math.max(peak, process.memoryUsage().rss);
      return { renewed, seconds, rssBefore, peakRss: peak, cpuMs: (cpu.user + cpu.system) / 1000 };
    } finally {
      clearInterval(sampler);
    }
  }

  /** What a member would see: renewed once, one succeeded payment each, nothing left in flight. */
  private async verify(seeded: Seeded): Promise<string[]> {
    const [row] = await this.db.query<
      Array<{ renewed: number; twice: number; in_flight: number; paid: number; months: number }>
    >(
      `SELECT count(*) FILTER (WHERE s.current_period_end > now())::int AS renewed,
              count(*) FILTER (WHERE s.lifetime_months <> 2)::int AS months,
              count(*) FILTER (WHERE s.pending_payment_id IS NOT NULL)::int AS in_flight,
              (SELECT count(*)::int FROM payment_transactions p
                WHERE p.site_id = $1 AND p.purpose = 'subscription' AND p.status = 'succeeded') AS paid,
              (SELECT count(*)::int FROM (SELECT p.subscription_id FROM payment_transactions p
                WHERE p.site_id = $1 AND p.purpose = 'subscription' GROUP BY 1 HAVING count(*) > 1) x) AS twice
         FROM subscriptions s WHERE s.site_id = $1`,
      [seeded.siteId],
    );
    const problems: string[] = [];
    if (row.renewed !== seeded.count) problems.push(`${row.renewed} of ${seeded.count} renewed`);
    if (row.months) problems.push(`${row.months} without exactly one more month`);
    if (row.in_flight) problems.push(`${row.in_flight} charges still in flight`);
    if (row.paid !== seeded.count) problems.push(`${row.paid} succeeded payments for ${seeded.count}`);
    if (row.twice) problems.push(`${row.twice} memberships charged twice`);
    return problems;
  }
}

const renewalsApp = new RenewalsApp();
answerParent((command: RenewalCommand) => renewalsApp.handle(command));
