import type { AppConfig } from '#app/config/app-config.js';
import { fulfilmentSettings, gatewaySettings } from '#app/config/gateway-config.js';
import { createTestApp, TEST_JWT_SECRET, type TestApp } from './app';
import { reservePort } from './net';

export interface SandboxApp extends TestApp {
  /** Where it listens, and its PUBLIC_BASE_URL: the sandbox's pages and webhooks use it. */
  base: string;
}

/**
 * The app with `PROVIDERS=sandbox`, listening on loopback, as `npm start` runs it on the embedded
 * default: the fake gateways mounted on it send their webhooks to it. Jobs still run on `drain()`.
 */
export async function startSandboxApp(overrides: Partial<AppConfig> = {}): Promise<SandboxApp> {
  const reserved = await reservePort();
  const { port } = reserved;
  const base = `http://127.0.0.1:${port}`;
  const gateways = gatewaySettings(
    {},
    { providers: 'sandbox', publicBaseUrl: base, jwtSecret: TEST_JWT_SECRET },
  );
  const fulfilment = fulfilmentSettings({}, { providers: 'sandbox', publicBaseUrl: base });
  let t: TestApp;
  try {
    t = await createTestApp({
      providers: 'sandbox',
      publicBaseUrl: base,
      ...gateways,
      fulfilment,
      ...overrides,
    });
  } finally {
    await reserved.release();
  }
  try {
    await t.app.listen(port, '127.0.0.1');
  } catch (error) {
    // Never left running: its job workers' timers would fire in the next suite, after this one's teardown.
    await t.close();
    throw error;
  }
  return Object.assign(t, { base });
}
