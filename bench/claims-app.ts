import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { createApplication, type RunningApp } from '#app/bootstrap.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { SessionService } from '#app/modules/auth/session.service.js';
import { SitesService } from '#app/modules/sites/sites.service.js';
import { AccountsService } from '#app/modules/users/accounts.service.js';
import { testConfig } from '../test/support/app.js';

/**
 * The app of `bench:claims` in a process of its own (the load generator and pgbench run elsewhere),
 * logging at `info` as in production. Answers its address and a seeded world: a site, an admin, and
 * members with tokens and points.
 */
let running: RunningApp | undefined;

async function init(databaseUrl: string, members: number): Promise<unknown> {
  running = await createApplication(
    testConfig({
      databaseUrl,
      dataDir: mkdtempSync(join(tmpdir(), 'bench-claims-')),
      jobs: false,
      mailTransport: 'log',
      logLevel: process.env.BENCH_LOG_LEVEL ?? 'info',
    }),
  );
  const app = running.app;
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  const siteId = `claims-${randomBytes(4).toString('hex')}`;
  await app.get(SitesService).ensureSite(siteId, 'Claims benchmark', null);
  const make = (role: 'admin' | 'user', n: number) =>
    app.get(TransactionRunner).run((manager) =>
      app.get(AccountsService).create(
        {
          site_id: siteId,
          email: `${role}-${n}-${randomBytes(3).toString('hex')}@bench.example.com`,
          name: null,
          role,
          signup_source: 'bench',
          password_hash: null,
          data_processing_consent: true,
        },
        manager,
      ),
    );
  const sessions = app.get(SessionService);
  const admin = await make('admin', 0);
  const users = [];
  for (let i = 0; i < members; i++) users.push(await make('user', i));
  const tokens = [];
  for (const u of users) tokens.push((await sessions.issue(u)).access_token);
  return {
    url: `http://127.0.0.1:${port}`,
    siteId,
    adminToken: (await sessions.issue(admin)).access_token,
    userIds: users.map((u) => u.id),
    tokens,
  };
}

/** A ledger of `rows` one-point adjustments for a user, and the balance and counters they add up to. */
async function ledger(userId: string, siteId: string, rows: number): Promise<null> {
  const db = running!.app.get<DataSource>(getDataSourceToken());
  await db.query(
    `INSERT INTO point_transactions (site_id, user_id, reason, transaction_type, created_by, amount, metadata)
     SELECT $2, $1, 'Bench history', 'adjustment', NULL, 1, '{}' FROM generate_series(1, $3::int)`,
    [userId, siteId, rows],
  );
  await db.query(
    `INSERT INTO rewards_balances (user_id, site_id, current_points, lifetime_earned) VALUES ($1, $2, $3, $3)
     ON CONFLICT (user_id) DO UPDATE SET current_points = rewards_balances.current_points + $3,
                                         lifetime_earned = rewards_balances.lifetime_earned + $3`,
    [userId, siteId, rows],
  );
  await db.query(`ANALYZE point_transactions; ANALYZE rewards_balances`);
  return null;
}

process.on('message', (m: { cmd: string; seq: number; [k: string]: unknown }) => {
  const work =
    m.cmd === 'init'
      ? init(m.databaseUrl as string, m.members as number)
      : m.cmd === 'ledger'
        ? ledger(m.userId as string, m.siteId as string, m.rows as number)
        : m.cmd === 'cpu'
          ? Promise.resolve(process.cpuUsage())
          : (running?.close() ?? Promise.resolve()).then(() => null);
  work.then(
    (value) =>
      process.send?.({ seq: m.seq, ok: true, value }, () => {
        if (m.cmd === 'close') process.exit(0);
      }),
    (error: unknown) =>
      process.send?.({ seq: m.seq, ok: false, error: String((error as Error).stack ?? error) }),
  );
});
