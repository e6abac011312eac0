import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FakeGateways } from './fake-gateways';
import { freePort } from './net';
import { serviceNodeFlags } from './node-flags';

export const SERVICE_ADMIN = { email: 'root@example.com', password: 'a-Long-enough-pass-7391' };

/** The service as `npm start` runs it (`node dist/src/main.js`), in a process of its own. */
export interface ServiceProcess {
  base: string;
  child: ChildProcess;
  /** Resolves with the exit code (or the signal's name) when the process ends. */
  exited: Promise<number | string>;
}

/**
 * Starts the built service on `databaseUrl` (undefined: its own embedded database under `dataDir`), with
 * the fakes as its gateways and `siteId` as the admin's site; resolves once `/health/ready` answers.
 * Several instances may share one `databaseUrl` and one `redisUrl` (scaling out, README).
 */
export async function startService(opts: {
  fakes: FakeGateways;
  siteId: string;
  databaseUrl?: string;
  dataDir?: string;
  /** Shared rate-limit counters (REDIS_URL); unset, the instance counts alone. */
  redisUrl?: string;
  /** Job workers on this instance (JOBS) [on]. */
  jobs?: boolean;
  /** MAIL_TRANSPORT [log: the instance's own outbox under DATA_DIR]; an smtp:// URL sends there. */
  mailTransport?: string;
  /** Further variables, applied last. */
  env?: Record<string, string>;
  /** How long start-up (migrations included) may take; a busy machine's embedded database needs minutes. */
  readyWithinMs?: number;
  /** The service's standard output (its logs) [ignore]; `pipe` leaves it readable on `child.stdout`. */
  stdout?: 'ignore' | 'pipe';
}): Promise<ServiceProcess> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const g1 = opts.fakes.config.gatewayOne;
  const g2 = opts.fakes.config.gatewayTwo;
  const main = join(__dirname, '..', '..', 'dist', 'src', 'main.js');
  const child = spawn(process.execPath, [...serviceNodeFlags(), main], {
    stdio: ['ignore', opts.stdout ?? 'ignore', 'inherit'],
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      PORT: String(port),
      PUBLIC_BASE_URL: base,
      ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl } : {}),
      DATA_DIR: opts.dataDir ?? mkdtempSync(join(tmpdir(), 'service-')),
      JWT_SECRET: 'service-secret-that-is-long-enough-0123456789',
      SECRETS_KEY: '07'.repeat(32),
      ADMIN_EMAIL: SERVICE_ADMIN.email,
      ADMIN_PASSWORD: SERVICE_ADMIN.password,
      ADMIN_SITE_ID: opts.siteId,
      PROVIDERS: 'live',
      GATEWAYONE_BASE_URL: g1.baseUrl,
      GATEWAYONE_ENTITY_ID: g1.entityId,
      GATEWAYONE_ACCESS_TOKEN: g1.accessToken,
      GATEWAYONE_WEBHOOK_KEY: g1.webhookKey,
      GATEWAYTWO_BASE_URL: g2.baseUrl,
      GATEWAYTWO_SECRET_KEY: g2.secretKey,
      GATEWAYTWO_WEBHOOK_SECRET: g2.webhookSecret,
      MAIL_TRANSPORT: opts.mailTransport ?? 'log',
      LOG_LEVEL: 'warn',
      JOBS: opts.jobs === false ? 'off' : 'on',
      ...(opts.redisUrl ? { REDIS_URL: opts.redisUrl } : {}),
      ...opts.env,
    },
  });
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  const deadline = Date.now() + (opts.readyWithinMs ?? 60_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
    const ready = await fetch(`${base}/health/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return { base, child, exited };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the service did not become ready');
}

/** A JSON call to the service, from an address of its own (per-IP limits apply per caller, as in life). */
export function callService(
  base: string,
  path: string,
  body?: unknown,
  token?: string,
  method = body === undefined ? 'GET' : 'POST',
): Promise<Response> {
  return fetch(`${base}${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': `10.77.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** The admin's access token (`SERVICE_ADMIN` on `siteId`). */
export async function adminToken(base: string, siteId: string): Promise<string> {
  const res = await callService(base, '/auth/login', { ...SERVICE_ADMIN, site_id: siteId });
  if (res.status !== 200) throw new Error(`login answered ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}
