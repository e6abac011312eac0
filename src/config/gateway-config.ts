import { createHmac } from 'node:crypto';
import type { EnvSchema } from './env.schema.js';

/** Per attempt, for every gateway call. */
export const GATEWAY_TIMEOUT_MS = 10_000;

export interface GatewayOneSettings {
  /** Without a trailing slash. */
  readonly baseUrl: string;
  readonly entityId: string;
  readonly accessToken: string;
  /** 64 hexadecimal characters: the AES-256-GCM key its webhooks are encrypted with. */
  readonly webhookKey: string;
  /** Per attempt. */
  readonly timeoutMs: number;
}

export interface GatewayTwoSettings {
  /** Without a trailing slash. */
  readonly baseUrl: string;
  /** Sent as `Authorization: Bearer …` on every call. */
  readonly secretKey: string;
  /** Signs its webhooks (HMAC-SHA256). */
  readonly webhookSecret: string;
  /** Per attempt. */
  readonly timeoutMs: number;
}

export interface FulfilmentSettings {
  /** Without a trailing slash. */
  readonly baseUrl: string;
  /** Sent as `X-API-Key` on every call. */
  readonly apiKey: string;
  /** Per attempt. */
  readonly timeoutMs: number;
}

/**
 * `FULFILMENT_BASE_URL` and `FULFILMENT_API_KEY` together, or no fulfilment provider; the sandbox mounts
 * its own fake (explicit values still win).
 */
export function fulfilmentSettings(
  env: EnvSchema,
  context: { providers: 'sandbox' | 'live'; publicBaseUrl: string },
): FulfilmentSettings | undefined {
  if (context.providers === 'sandbox')
    return {
      baseUrl: (env.FULFILMENT_BASE_URL ?? `${context.publicBaseUrl}/sandbox/fulfilment`).replace(/\/+$/, ''),
      apiKey: env.FULFILMENT_API_KEY ?? SANDBOX_CREDENTIALS.fulfilmentApiKey,
      timeoutMs: GATEWAY_TIMEOUT_MS,
    };
  if (!env.FULFILMENT_BASE_URL || !env.FULFILMENT_API_KEY) return undefined;
  return {
    baseUrl: env.FULFILMENT_BASE_URL.replace(/\/+$/, ''),
    apiKey: env.FULFILMENT_API_KEY,
    timeoutMs: GATEWAY_TIMEOUT_MS,
  };
}

const GATEWAYONE = [
  'GATEWAYONE_BASE_URL',
  'GATEWAYONE_ENTITY_ID',
  'GATEWAYONE_ACCESS_TOKEN',
  'GATEWAYONE_WEBHOOK_KEY',
] as const;
const GATEWAYTWO = ['GATEWAYTWO_BASE_URL', 'GATEWAYTWO_SECRET_KEY', 'GATEWAYTWO_WEBHOOK_SECRET'] as const;

/** Fixed credentials of the local sandbox (it accepts nothing else, and moves no money). */
export const SANDBOX_CREDENTIALS = {
  gatewayOneEntityId: 'sandbox-entity',
  gatewayOneAccessToken: 'sandbox-gatewayone-access-token',
  gatewayTwoSecretKey: 'sandbox-gatewaytwo-secret-key',
  fulfilmentApiKey: 'sandbox-fulfilment-api-key',
} as const;

/**
 * With live providers a gateway is either fully configured or not at all (a half-configured one is a
 * typing mistake); in production both must be. The sandbox is refused in production: its hosted pages
 * "pay" for anything.
 */
export function gatewayProblems(
  env: EnvSchema,
  providers: 'sandbox' | 'live',
  production: boolean,
): string[] {
  if (providers === 'sandbox')
    return production
      ? [
          'PROVIDERS=sandbox (the default without DATABASE_URL) is not allowed in production: its payments are fake',
        ]
      : [];
  return [GATEWAYONE, GATEWAYTWO].flatMap((names) => {
    const missing = names.filter((name) => !env[name]);
    if (missing.length === 0 || (!production && missing.length === names.length)) return [];
    const why = production
      ? 'in production with PROVIDERS=live'
      : `once ${names[0].split('_')[0]} is configured`;
    return missing.map((name) => `${name} is required ${why}`);
  });
}

/** A sandbox webhook secret derived from JWT_SECRET: stable across restarts, not guessable from outside. */
function derived(jwtSecret: string, purpose: string): string {
  return createHmac('sha256', jwtSecret).update(`sandbox:${purpose}`).digest('hex');
}

const trim = (url: string): string => url.replace(/\/+$/, '');

/** The two gateways' settings (DESIGN §11); `undefined` for a gateway live configuration leaves out. */
export function gatewaySettings(
  env: EnvSchema,
  context: { providers: 'sandbox' | 'live'; publicBaseUrl: string; jwtSecret: string },
): { gatewayOne: GatewayOneSettings | undefined; gatewayTwo: GatewayTwoSettings | undefined } {
  if (context.providers === 'sandbox') {
    // The app's own sandbox mount (src/infra/providers/sandbox); explicit values still win.
    return {
      gatewayOne: {
        baseUrl: trim(env.GATEWAYONE_BASE_URL ?? `${context.publicBaseUrl}/sandbox/gatewayone`),
        entityId: env.GATEWAYONE_ENTITY_ID ?? SANDBOX_CREDENTIALS.gatewayOneEntityId,
        accessToken: env.GATEWAYONE_ACCESS_TOKEN ?? SANDBOX_CREDENTIALS.gatewayOneAccessToken,
        webhookKey: (env.GATEWAYONE_WEBHOOK_KEY ?? derived(context.jwtSecret, 'gatewayone')).toLowerCase(),
        timeoutMs: GATEWAY_TIMEOUT_MS,
      },
      gatewayTwo: {
        baseUrl: trim(env.GATEWAYTWO_BASE_URL ?? `${context.publicBaseUrl}/sandbox/gatewaytwo`),
        secretKey: env.GATEWAYTWO_SECRET_KEY ?? SANDBOX_CREDENTIALS.gatewayTwoSecretKey,
        webhookSecret: env.GATEWAYTWO_WEBHOOK_SECRET ?? `wsk_${derived(context.jwtSecret, 'gatewaytwo')}`,
        timeoutMs: GATEWAY_TIMEOUT_MS,
      },
    };
  }
  const {
    GATEWAYONE_BASE_URL: oneUrl,
    GATEWAYONE_ENTITY_ID: entityId,
    GATEWAYONE_ACCESS_TOKEN: accessToken,
    GATEWAYONE_WEBHOOK_KEY: webhookKey,
    GATEWAYTWO_BASE_URL: twoUrl,
    GATEWAYTWO_SECRET_KEY: secretKey,
    GATEWAYTWO_WEBHOOK_SECRET: webhookSecret,
  } = env;
  return {
    gatewayOne:
      oneUrl && entityId && accessToken && webhookKey
        ? {
            baseUrl: trim(oneUrl),
            entityId,
            accessToken,
            webhookKey: webhookKey.toLowerCase(),
            timeoutMs: GATEWAY_TIMEOUT_MS,
          }
        : undefined,
    gatewayTwo:
      twoUrl && secretKey && webhookSecret
        ? { baseUrl: trim(twoUrl), secretKey, webhookSecret, timeoutMs: GATEWAY_TIMEOUT_MS }
        : undefined,
  };
}
