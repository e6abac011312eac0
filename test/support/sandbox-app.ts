import type { AppConfig } from '#app/config/app-config.js';
import { fulfilmentSettings, gatewaySettings } from '#app/config/gateway-config.js';
import { createTestApp, TEST_JWT_SECRET, type TestApp } from './app';
import { freePort } from './net';

export interface SandboxApp extends TestApp {
  /** Where it listens, and its PUBLIC_BASE_URL: the sandbox's pages and webhooks use it. */
  base: string;
}

/**
 * The app with `PROVIDERS=sandbox`, listening on loopback, as `npm start` runs it on the embedded
 * default: the fake gateways mounted on it send their webhooks to it. Jobs still run on `drain()`.
 */
export async function startSandboxApp(overrides: Partial<AppConfig> = {}): Promise<SandboxApp> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const gateways = gatewaySettings(
    {},
    { providers: 'sandbox', publicBaseUrl: base, jwtSecret: TEST_JWT_SECRET },
  );
  const fulfilment = fulfilmentSettings({}, { providers: 'sandbox', publicBaseUrl: base });
  const t = await createTestApp({
    providers: 'sandbox',
    publicBaseUrl: base,
    ...gateways,
    fulfilment,
    ...overrides,
  });
  await t.app.listen(port, '127.0.0.1');
  return Object.assign(t, { base });
}
