import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './load-config.js';

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
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
  ])('stops with a message naming the bad variable: %j', (env, name) => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), ...env })).toThrow(new RegExp(name));
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), ADMIN_SITE_ID: '', REDIS_URL: '' })).toMatchObject({
      defaultSiteId: 'default',
      redisUrl: undefined,
    });
  });

  it('uses the given PostgreSQL and live providers in production', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://u:p@db:5432/app',
      JWT_SECRET: 'x'.repeat(40),
      SECRETS_KEY: 'ab'.repeat(32),
      CORS_ORIGINS: 'https://a.example, https://b.example',
    });
    expect(config).toMatchObject({
      providers: 'live',
      corsOrigins: ['https://a.example', 'https://b.example'],
    });
  });
});
