import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { createApplication } from '#app/bootstrap.js';
import { AppConfig } from '#app/config/app-config.js';
import { JobQueue } from '#app/infra/jobs/job-queue.service.js';
import { SmtpSink } from './smtp-sink';

export interface TestApp {
  app: NestExpressApplication;
  config: AppConfig;
  db: DataSource;
  jobs: JobQueue;
  smtp: SmtpSink;
  /** Runs the due jobs (mail and the rest), as a worker would. */
  drain(): Promise<number>;
  close(): Promise<void>;
}

export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';

export function testConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  return AppConfig.of({
    nodeEnv: 'test',
    port: 0,
    publicBaseUrl: 'http://localhost:3000',
    corsOrigins: ['https://app.example.com'],
    logLevel: process.env.E2E_LOG_LEVEL ?? 'silent', // E2E_LOG_LEVEL=debug to see the app's logs
    logFile: undefined,
    databaseUrl: process.env.E2E_DATABASE_URL,
    dataDir: mkdtempSync(join(tmpdir(), 'e2e-data-')),
    jwtSecret: TEST_JWT_SECRET,
    secretsKey: Buffer.alloc(32, 7),
    redisUrl: undefined,
    admin: undefined,
    defaultSiteId: 'default',
    defaultSiteName: undefined,
    providers: 'live',
    // Tests that pay start the loopback fakes and pass their settings (test/support/fake-gateways.ts).
    gatewayOne: undefined,
    gatewayTwo: undefined,
    mailTransport: 'log',
    mailFrom: 'no-reply@example.com',
    mailerBaseUrl: undefined,
    fulfilment: undefined,
    cmsWebhookSecret: undefined,
    contactsvcBaseUrl: undefined,
    analyticsBaseUrl: undefined,
    marketingBaseUrl: undefined,
    jobs: false,
    metricsToken: undefined,
    trustProxy: 'loopback',
    allowedPrivateHosts: [],
    jwtSecretsPrevious: [],
    secretsKeysPrevious: [],
    // Real argon2id at a test's cost; the production cost is held by the hasher's unit test.
    passwordHashing: 'light',
    ...overrides,
  });
}

/**
 * The real application on the run's database (PGlite or PostgreSQL), with mail going to a real SMTP
 * server on loopback and job workers off: tests `drain()` the queue when they want jobs to run.
 */
export async function createTestApp(overrides: Partial<AppConfig> = {}): Promise<TestApp> {
  if (!process.env.E2E_DATABASE_URL)
    throw new Error('E2E_DATABASE_URL is not set: run through jest.e2e.config.cjs');
  const smtp = await new SmtpSink().start();
  const config = testConfig({ mailTransport: `smtp://127.0.0.1:${smtp.port}`, ...overrides });
  const running = await createApplication(config).catch(async (error: unknown) => {
    await smtp.stop();
    throw error;
  });
  const jobs = running.app.get(JobQueue);
  return {
    app: running.app,
    config,
    db: running.app.get<DataSource>(getDataSourceToken()),
    jobs,
    smtp,
    drain: () => jobs.drain(),
    async close() {
      await running.close();
      await smtp.stop();
    },
  };
}
