import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { createApplication, type RunningApp } from '#app/bootstrap.js';
import { SitesService } from '#app/modules/sites/sites.service.js';
import { accessTokenOf, accountMaker } from '../test/support/bench-accounts.js';
import { benchConfig, listenOnLoopback } from './bench-app.js';
import { answerParent } from './ipc-child.js';

/**
 * The app of `bench:claims` in a process of its own (the load generator and pgbench run elsewhere),
 * logging at `info` as in production. Answers its address and a seeded world: a site, an admin, and
 * members with tokens and points.
 */
let running: RunningApp | undefined;

async function init(databaseUrl: string, members: number): Promise<unknown> {
  running = await createApplication(benchConfig('claims', { databaseUrl }));
  const app = running.app;
  const url = await listenOnLoopback(app);
  const siteId = `claims-${randomBytes(4).toString('hex')}`;
  await app.get(SitesService).ensureSite(siteId, 'Claims benchmark', null);
  const make = accountMaker(app, siteId, 'bench.example.com');
  const admin = await make('admin', 0);
  const users = [];
  for (let i = 0; i < members; i++) users.push(await make('user', i));
  const tokens = [];
  for (const u of users) tokens.push(await accessTokenOf(app, u));
  return {
    url,
    siteId,
    adminToken: await accessTokenOf(app, admin),
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

answerParent((m: { cmd: string; [k: string]: unknown }) =>
  m.cmd === 'init'
    ? init(m.databaseUrl as string, m.members as number)
    : m.cmd === 'ledger'
      ? ledger(m.userId as string, m.siteId as string, m.rows as number)
      : m.cmd === 'cpu'
        ? Promise.resolve(process.cpuUsage())
        : (running?.close() ?? Promise.resolve()).then(() => null),
);
