import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import type { AppConfig } from '#app/config/app-config.js';
import { testConfig } from '../test/support/app.js';

/**
 * The service as a benchmark runs it: a web instance (job workers off unless `overrides` says otherwise),
 * mail written to the log, logging at `BENCH_LOG_LEVEL` (`info`, as in production), files in a fresh
 * temporary directory named after the benchmark.
 */
export function benchConfig(name: string, overrides: Partial<AppConfig>): AppConfig {
  return testConfig({
    dataDir: mkdtempSync(join(tmpdir(), `bench-${name}-`)),
    jobs: false,
    mailTransport: 'log',
    logLevel: process.env.BENCH_LOG_LEVEL ?? 'info',
    passwordHashing: 'standard', // what production pays
    ...overrides,
  });
}

/** Listens on a free loopback port; answers the base URL. */
export async function listenOnLoopback(app: INestApplication): Promise<string> {
  await app.listen(0, '127.0.0.1');
  return `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
}
