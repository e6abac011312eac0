import 'reflect-metadata';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApplication, type RunningApp } from '#app/bootstrap.js';
import type { GatewayOneSettings, GatewayTwoSettings } from '#app/config/gateway-config.js';
import { testConfig } from '../test/support/app.js';
import { seedMixedWorld } from '../test/support/mixed-workload.js';

/**
 * The app of `bench:mixed` in a process of its own (autocannon and the fake gateway run in the
 * orchestrator), a web instance with job workers off, logging at `info` as in production (output
 * discarded). Answers the seeded world of the mixed workload.
 */
let running: RunningApp | undefined;

async function init(m: {
  databaseUrl: string;
  gateways: { gatewayOne: GatewayOneSettings; gatewayTwo: GatewayTwoSettings };
  members: number;
  raffles: number;
}): Promise<unknown> {
  running = await createApplication(
    testConfig({
      databaseUrl: m.databaseUrl,
      dataDir: mkdtempSync(join(tmpdir(), 'bench-mixed-')),
      jobs: false,
      mailTransport: 'log',
      logLevel: process.env.BENCH_LOG_LEVEL ?? 'info',
      providers: 'live',
      ...m.gateways,
    }),
  );
  const app = running.app;
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return seedMixedWorld(app, `http://127.0.0.1:${port}`, { members: m.members, raffles: m.raffles });
}

process.on('message', (m: { cmd: string; seq: number; [k: string]: unknown }) => {
  const work =
    m.cmd === 'init'
      ? init(m as unknown as Parameters<typeof init>[0])
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
