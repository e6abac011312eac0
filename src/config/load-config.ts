import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { AppConfig } from './app-config.js';
import { EnvSchema } from './env.schema.js';
import { fulfilmentSettings, gatewayProblems, gatewaySettings } from './gateway-config.js';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
}

interface KeptSecrets {
  JWT_SECRET: string;
  SECRETS_KEY: string;
}

/**
 * Outside production a missing JWT_SECRET / SECRETS_KEY is generated once and kept under DATA_DIR,
 * so a restart keeps tokens and encrypted secrets valid (DESIGN §2).
 */
function keptSecrets(dataDir: string): KeptSecrets {
  const file = join(dataDir, 'secrets.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as KeptSecrets;
  const secrets = {
    JWT_SECRET: randomBytes(48).toString('base64url'),
    SECRETS_KEY: randomBytes(32).toString('hex'),
  };
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  // An empty variable means "not set" (compose files and shells produce them for optional values).
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = plainToInstance(EnvSchema, present, { excludeExtraneousValues: false });
  const errors = validateSync(parsed, { whitelist: false });
  const problems = errors.flatMap((e) => Object.values(e.constraints ?? {}));
  const nodeEnv = (parsed.NODE_ENV ?? 'development') as AppConfig['nodeEnv'];
  if (nodeEnv === 'production' && !parsed.DATABASE_URL)
    problems.push('DATABASE_URL is required in production');
  const providers = (parsed.PROVIDERS ??
    (parsed.DATABASE_URL ? 'live' : 'sandbox')) as AppConfig['providers'];
  problems.push(...gatewayProblems(parsed, providers, nodeEnv === 'production'));
  if (problems.length) throw new ConfigError(problems);

  const dataDir = resolve(parsed.DATA_DIR ?? './data');
  const kept = !parsed.JWT_SECRET || !parsed.SECRETS_KEY ? keptSecrets(dataDir) : undefined;
  const jwtSecret = parsed.JWT_SECRET ?? kept?.JWT_SECRET ?? '';
  const secretsKey = parsed.SECRETS_KEY ?? kept?.SECRETS_KEY ?? '';
  const port = parsed.PORT ?? 3000;
  const defaultSiteId = parsed.ADMIN_SITE_ID ?? 'default';
  const publicBaseUrl = (parsed.PUBLIC_BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');

  return AppConfig.of({
    nodeEnv,
    port,
    publicBaseUrl,
    corsOrigins: (parsed.CORS_ORIGINS ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    logLevel: parsed.LOG_LEVEL ?? 'info',
    logFile: parsed.LOG_FILE,
    databaseUrl: parsed.DATABASE_URL,
    dataDir,
    jwtSecret,
    secretsKey: Buffer.from(secretsKey, 'hex'),
    jwtSecretsPrevious: listOf(parsed.JWT_SECRET_PREVIOUS),
    secretsKeysPrevious: listOf(parsed.SECRETS_KEY_PREVIOUS).map((k) => Buffer.from(k, 'hex')),
    redisUrl: parsed.REDIS_URL,
    admin:
      parsed.ADMIN_EMAIL && parsed.ADMIN_PASSWORD
        ? { email: parsed.ADMIN_EMAIL, password: parsed.ADMIN_PASSWORD, siteId: defaultSiteId }
        : undefined,
    defaultSiteId,
    defaultSiteName: parsed.ADMIN_SITE_NAME?.trim(),
    providers,
    ...gatewaySettings(parsed, { providers, publicBaseUrl, jwtSecret }),
    mailTransport: parsed.MAIL_TRANSPORT ?? 'log',
    mailFrom: parsed.MAIL_FROM ?? 'no-reply@localhost',
    mailerBaseUrl: parsed.MAILER_BASE_URL?.replace(/\/+$/, ''),
    fulfilment: fulfilmentSettings(parsed, { providers, publicBaseUrl }),
    cmsWebhookSecret: parsed.CMS_WEBHOOK_SECRET,
    contactsvcBaseUrl: parsed.CONTACTSVC_BASE_URL?.replace(/\/+$/, ''),
    analyticsBaseUrl: parsed.ANALYTICS_BASE_URL?.replace(/\/+$/, ''),
    marketingBaseUrl: parsed.MARKETING_BASE_URL?.replace(/\/+$/, ''),
    jobs: (parsed.JOBS ?? 'on') === 'on',
    metricsToken: parsed.METRICS_TOKEN,
    trustProxy: parsed.TRUST_PROXY ?? 'loopback',
    allowedPrivateHosts: (parsed.ALLOWED_PRIVATE_HOSTS ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
    passwordHashing: 'standard',
  });
}

/** A comma-separated setting as a list (none: empty). */
function listOf(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
}
