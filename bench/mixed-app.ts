import 'reflect-metadata';
import { createApplication, type RunningApp } from '#app/bootstrap.js';
import type { GatewayOneSettings, GatewayTwoSettings } from '#app/config/gateway-config.js';
import { seedMixedWorld } from '../test/support/mixed-workload.js';
import { benchConfig, listenOnLoopback } from './bench-app.js';
import { answerParent } from './ipc-child.js';

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
    benchConfig('mixed', { databaseUrl: m.databaseUrl, providers: 'live', ...m.gateways }),
  );
  const app = running.app;
  return seedMixedWorld(app, await listenOnLoopback(app), { members: m.members, raffles: m.raffles });
}

answerParent((m: { cmd: string }) =>
  m.cmd === 'init'
    ? init(m as unknown as Parameters<typeof init>[0])
    : m.cmd === 'cpu'
      ? Promise.resolve(process.cpuUsage())
      : (running?.close() ?? Promise.resolve()).then(() => null),
);
