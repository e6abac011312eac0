import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse } from 'yaml';
import { serviceNodeFlags } from '../support/node-flags';

interface ComposeService {
  image?: string;
  build?: string | { context?: string; dockerfile?: string };
  environment?: Record<string, string | number | boolean | null> | string[];
  depends_on?: string[] | Record<string, { condition?: string }>;
  healthcheck?: { test?: string | string[] };
}

interface ComposeFile {
  services: Record<string, ComposeService | undefined>;
}

const ROOT = resolve(__dirname, '../..');
const COMPOSE_PATH = resolve(ROOT, 'docker/compose.yaml');

// DESIGN §11, plus MAIL_FROM and TRUST_PROXY which the service also reads.
const CONFIGURATION = new Set([
  'PORT',
  'PUBLIC_BASE_URL',
  'CORS_ORIGINS',
  'LOG_LEVEL',
  'DATABASE_URL',
  'DATA_DIR',
  'NODE_ENV',
  'JWT_SECRET',
  'SECRETS_KEY',
  'REDIS_URL',
  'ADMIN_EMAIL',
  'ADMIN_PASSWORD',
  'ADMIN_SITE_ID',
  'PROVIDERS',
  'MAIL_TRANSPORT',
  'GATEWAYONE_BASE_URL',
  'GATEWAYONE_ENTITY_ID',
  'GATEWAYONE_ACCESS_TOKEN',
  'GATEWAYONE_WEBHOOK_KEY',
  'GATEWAYTWO_BASE_URL',
  'GATEWAYTWO_SECRET_KEY',
  'GATEWAYTWO_WEBHOOK_SECRET',
  'FULFILMENT_BASE_URL',
  'FULFILMENT_API_KEY',
  'CMS_WEBHOOK_SECRET',
  'MAILER_BASE_URL',
  'CONTACTSVC_BASE_URL',
  'ANALYTICS_BASE_URL',
  'MARKETING_BASE_URL',
  'JOBS',
  'METRICS_TOKEN',
  'MAIL_FROM',
  'TRUST_PROXY',
]);

const compose = parse(readFileSync(COMPOSE_PATH, 'utf8')) as ComposeFile;

function service(name: string): ComposeService {
  const found = compose.services[name];
  if (!found) throw new Error(`compose.yaml has no service "${name}"`);
  return found;
}

/** `environment` as a map, whichever of the two compose syntaxes the file uses. */
function environmentOf(svc: ComposeService): Map<string, string> {
  const env = svc.environment ?? {};
  const entries = Array.isArray(env)
    ? env.map((line): [string, string] => {
        const eq = line.indexOf('=');
        return eq === -1 ? [line, ''] : [line.slice(0, eq), line.slice(eq + 1)];
      })
    : Object.entries(env).map(([k, v]): [string, string] => [k, v === null ? '' : String(v)]);
  return new Map(entries);
}

function buildOf(svc: ComposeService): { context: string; dockerfile: string } {
  const build = typeof svc.build === 'string' ? { context: svc.build } : (svc.build ?? {});
  return { context: build.context ?? '.', dockerfile: build.dockerfile ?? 'Dockerfile' };
}

describe('docker/compose.yaml', () => {
  it('defines the app, its database and its redis', () => {
    expect(Object.keys(compose.services)).toEqual(expect.arrayContaining(['app', 'db', 'redis']));
  });

  it('starts the app only once the database and redis report healthy', () => {
    expect(service('app').depends_on).toEqual({
      db: expect.objectContaining({ condition: 'service_healthy' }),
      redis: expect.objectContaining({ condition: 'service_healthy' }),
    });
  });

  it('gives the database and redis healthchecks', () => {
    expect(String(service('db').healthcheck?.test)).toContain('pg_isready');
    expect(String(service('redis').healthcheck?.test)).toContain('redis-cli');
  });

  it('points the app at the db and redis services by their compose names', () => {
    const env = environmentOf(service('app'));
    expect(new URL(env.get('DATABASE_URL') ?? '').hostname).toBe('db');
    expect(new URL(env.get('REDIS_URL') ?? '').hostname).toBe('redis');
  });

  it('sets no environment variable the service does not read', () => {
    const unknown = [...environmentOf(service('app')).keys()].filter((name) => !CONFIGURATION.has(name));
    expect(unknown).toEqual([]);
  });

  it('builds the app from a Dockerfile that exists', () => {
    const { context, dockerfile } = buildOf(service('app'));
    const contextDir = resolve(dirname(COMPOSE_PATH), context);
    expect(contextDir).toBe(ROOT);
    expect(existsSync(resolve(contextDir, dockerfile))).toBe(true);
  });

  it('runs in the container the same entry point as `npm run start:prod`', () => {
    const { context, dockerfile } = buildOf(service('app'));
    const text = readFileSync(resolve(dirname(COMPOSE_PATH), context, dockerfile), 'utf8');
    const cmdLines = text.split('\n').filter((line) => line.startsWith('CMD '));
    expect(cmdLines).toHaveLength(1);
    const cmd = JSON.parse((cmdLines[0] ?? '').slice('CMD '.length)) as string[];
    const pkg = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(cmd.join(' ')).toBe(pkg.scripts['start:prod']);
    expect(cmd).toContain('dist/src/main.js');
    // `npm start` builds, then runs the very same command, Node's flags included.
    expect(pkg.scripts.start).toBe(`npm run build && ${pkg.scripts['start:prod']}`);
    expect(serviceNodeFlags()).toEqual(['--max-semi-space-size=32']);
  });
});
