import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './load-config.js';

const GATEWAYS = {
  GATEWAYONE_BASE_URL: 'https://one.example/',
  GATEWAYONE_ENTITY_ID: 'entity-1',
  GATEWAYONE_ACCESS_TOKEN: 'one-token',
  GATEWAYONE_WEBHOOK_KEY: 'AB'.repeat(32),
  GATEWAYTWO_BASE_URL: 'https://two.example',
  GATEWAYTWO_SECRET_KEY: 'sk_two',
  GATEWAYTWO_WEBHOOK_SECRET: 'wsk_two',
};

const PRODUCTION = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://u:p@db:5432/app',
  JWT_SECRET: 'x'.repeat(40),
  SECRETS_KEY: 'ab'.repeat(32),
  ...GATEWAYS,
};

const dataDir = (): string => mkdtempSync(join(tmpdir(), 'config-spec-'));

describe('configuration is validated once, at start-up', () => {
  it('defaults to the embedded database, the sandbox providers and the log mail transport', () => {
    const config = loadConfig({ DATA_DIR: dataDir() });
    expect(config).toMatchObject({
      databaseUrl: undefined,
      providers: 'sandbox',
      mailTransport: 'log',
      port: 3000,
      jobs: true,
    });
    expect(config.secretsKey).toHaveLength(32);
    expect(config.jwtSecret.length).toBeGreaterThanOrEqual(32);
  });

  it('hashes passwords at the production cost whatever the environment says (the light cost is tests’ own)', () => {
    for (const env of [{}, { NODE_ENV: 'test' }, { PASSWORD_HASHING: 'light' }])
      expect(loadConfig({ ...env, DATA_DIR: dataDir() }).passwordHashing).toBe('standard');
  });

  it('keeps generated secrets under DATA_DIR so a restart keeps tokens valid', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir });
    const second = loadConfig({ DATA_DIR: dir });
    expect(second.jwtSecret).toBe(first.jwtSecret);
    expect(second.secretsKey.equals(first.secretsKey)).toBe(true);
  });

  it('refuses to start in production without DATABASE_URL, JWT_SECRET and SECRETS_KEY, naming each', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir() })).toThrow(ConfigError);
    try {
      loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir() });
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain('DATABASE_URL');
      expect(message).toContain('JWT_SECRET');
      expect(message).toContain('SECRETS_KEY');
    }
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ SECRETS_KEY: 'abc' }, 'SECRETS_KEY'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET'],
    [{ MAIL_TRANSPORT: 'carrier-pigeon' }, 'MAIL_TRANSPORT'],
    [{ ADMIN_EMAIL: 'a@example.com' }, 'ADMIN_PASSWORD'],
    [{ ADMIN_EMAIL: 'admin@localhost', ADMIN_PASSWORD: 'a-long-admin-password' }, 'ADMIN_EMAIL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
  ])('stops with a message naming the bad variable: %j', (env, name) => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), ...env })).toThrow(new RegExp(name));
  });

  it('takes the admin’s site name from ADMIN_SITE_NAME, refusing a blank one', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), ADMIN_SITE_ID: 'main' }).defaultSiteName).toBeUndefined();
    expect(
      loadConfig({ DATA_DIR: dataDir(), ADMIN_SITE_ID: 'main', ADMIN_SITE_NAME: 'Main Street Prizes' })
        .defaultSiteName,
    ).toBe('Main Street Prizes');
    expect(() => loadConfig({ DATA_DIR: dataDir(), ADMIN_SITE_NAME: '  ' })).toThrow(/ADMIN_SITE_NAME/);
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), ADMIN_SITE_ID: '', REDIS_URL: '' })).toMatchObject({
      defaultSiteId: 'default',
      defaultSiteName: undefined,
      redisUrl: undefined,
    });
  });

  it('uses the given PostgreSQL and live providers in production', () => {
    const config = loadConfig({
      ...PRODUCTION,
      CORS_ORIGINS: 'https://a.example, https://b.example',
    });
    expect(config).toMatchObject({
      providers: 'live',
      corsOrigins: ['https://a.example', 'https://b.example'],
    });
  });
});

describe('gateway configuration (DESIGN §11)', () => {
  it('points the sandbox gateways at the app’s own sandbox mount, with fixed sandbox credentials', () => {
    const config = loadConfig({ DATA_DIR: dataDir(), PUBLIC_BASE_URL: 'http://localhost:4000/' });
    expect(config.gatewayOne).toMatchObject({
      baseUrl: 'http://localhost:4000/sandbox/gatewayone',
      entityId: 'sandbox-entity',
      accessToken: 'sandbox-gatewayone-access-token',
      timeoutMs: 10_000,
    });
    expect(config.gatewayOne?.webhookKey).toMatch(/^[0-9a-f]{64}$/);
    expect(config.gatewayTwo).toMatchObject({
      baseUrl: 'http://localhost:4000/sandbox/gatewaytwo',
      secretKey: 'sandbox-gatewaytwo-secret-key',
      timeoutMs: 10_000,
    });
    expect(config.gatewayTwo?.webhookSecret).toMatch(/^wsk_[0-9a-f]{64}$/);
  });

  it('keeps the sandbox webhook secrets across restarts and derives them from JWT_SECRET', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir });
    const again = loadConfig({ DATA_DIR: dir });
    const other = loadConfig({ DATA_DIR: dir, JWT_SECRET: 'y'.repeat(40) });
    expect(again.gatewayOne?.webhookKey).toBe(first.gatewayOne?.webhookKey);
    expect(again.gatewayTwo?.webhookSecret).toBe(first.gatewayTwo?.webhookSecret);
    expect(other.gatewayOne?.webhookKey).not.toBe(first.gatewayOne?.webhookKey);
    expect(other.gatewayTwo?.webhookSecret).not.toBe(first.gatewayTwo?.webhookSecret);
  });

  it('lets explicit values win over the sandbox defaults', () => {
    const config = loadConfig({ DATA_DIR: dataDir(), PROVIDERS: 'sandbox', ...GATEWAYS });
    expect(config.gatewayOne).toMatchObject({ baseUrl: 'https://one.example', entityId: 'entity-1' });
    expect(config.gatewayTwo).toMatchObject({ secretKey: 'sk_two', webhookSecret: 'wsk_two' });
  });

  it('groups the live gateway settings, trimming base URLs and lower-casing the webhook key', () => {
    const config = loadConfig(PRODUCTION);
    expect(config.gatewayOne).toEqual({
      baseUrl: 'https://one.example',
      entityId: 'entity-1',
      accessToken: 'one-token',
      webhookKey: 'ab'.repeat(32),
      timeoutMs: 10_000,
    });
    expect(config.gatewayTwo).toEqual({
      baseUrl: 'https://two.example',
      secretKey: 'sk_two',
      webhookSecret: 'wsk_two',
      timeoutMs: 10_000,
    });
  });

  it('requires every gateway variable in production with live providers, naming each missing one', () => {
    const { GATEWAYONE_ACCESS_TOKEN: _token, GATEWAYTWO_WEBHOOK_SECRET: _secret, ...partial } = PRODUCTION;
    expect(() => loadConfig(partial)).toThrow(ConfigError);
    expect(() => loadConfig(partial)).toThrow(/GATEWAYONE_ACCESS_TOKEN is required in production/);
    expect(() => loadConfig(partial)).toThrow(/GATEWAYTWO_WEBHOOK_SECRET is required in production/);
    const withoutGateways = Object.fromEntries(
      Object.entries(PRODUCTION).filter(([name]) => !name.startsWith('GATEWAY')),
    );
    try {
      loadConfig(withoutGateways);
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect((error as ConfigError).problems).toEqual(
        Object.keys(GATEWAYS).map((name) => `${name} is required in production with PROVIDERS=live`),
      );
    }
  });

  it('refuses the sandbox in production: its payments are fake', () => {
    expect(() => loadConfig({ ...PRODUCTION, PROVIDERS: 'sandbox' })).toThrow(/PROVIDERS=sandbox/);
  });

  it('outside production, leaves an unconfigured live gateway out but refuses a half-configured one', () => {
    const live = { DATA_DIR: dataDir(), DATABASE_URL: 'postgres://u:p@localhost/app' };
    const none = loadConfig(live);
    expect(none.providers).toBe('live');
    expect(none.gatewayOne).toBeUndefined();
    expect(none.gatewayTwo).toBeUndefined();
    const onlyTwo = loadConfig({
      ...live,
      GATEWAYTWO_BASE_URL: GATEWAYS.GATEWAYTWO_BASE_URL,
      GATEWAYTWO_SECRET_KEY: GATEWAYS.GATEWAYTWO_SECRET_KEY,
      GATEWAYTWO_WEBHOOK_SECRET: GATEWAYS.GATEWAYTWO_WEBHOOK_SECRET,
    });
    expect(onlyTwo.gatewayOne).toBeUndefined();
    expect(onlyTwo.gatewayTwo?.secretKey).toBe('sk_two');
    expect(() => loadConfig({ ...live, GATEWAYONE_BASE_URL: 'https://one.example' })).toThrow(
      /GATEWAYONE_ENTITY_ID is required once GATEWAYONE is configured/,
    );
  });

  it.each([
    [{ GATEWAYONE_WEBHOOK_KEY: 'abc' }, 'GATEWAYONE_WEBHOOK_KEY must be 64 hexadecimal'],
    [{ GATEWAYONE_BASE_URL: 'not a url' }, 'GATEWAYONE_BASE_URL'],
    [{ GATEWAYTWO_BASE_URL: 'ftp//x' }, 'GATEWAYTWO_BASE_URL'],
  ])('stops with a message naming a malformed gateway variable: %j', (env, message) => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), ...env })).toThrow(message);
  });
});
