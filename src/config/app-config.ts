import type { FulfilmentSettings, GatewayOneSettings, GatewayTwoSettings } from './gateway-config.js';

/** The validated, defaulted configuration every part of the service reads (never `process.env`). */
export class AppConfig {
  readonly nodeEnv!: 'development' | 'production' | 'test';
  readonly port!: number;
  readonly publicBaseUrl!: string;
  readonly corsOrigins!: string[];
  readonly logLevel!: string;
  /** Logs go to standard output unless a file is named. */
  readonly logFile!: string | undefined;
  /** Unset means the embedded database: the address is known only once it has started. */
  readonly databaseUrl!: string | undefined;
  readonly dataDir!: string;
  readonly jwtSecret!: string;
  /** 32-byte key for secrets at rest (AES-256-GCM). */
  readonly secretsKey!: Buffer;
  /** Rotation (README "Operations"): earlier JWT secrets still verify; earlier SECRETS_KEYs still decrypt. */
  readonly jwtSecretsPrevious!: string[];
  readonly secretsKeysPrevious!: Buffer[];
  readonly redisUrl!: string | undefined;
  readonly admin!: { email: string; password: string; siteId: string } | undefined;
  readonly defaultSiteId!: string;
  /** Display name of `defaultSiteId`'s site when start-up creates it (ADMIN_SITE_NAME); unset: from its id. */
  readonly defaultSiteName!: string | undefined;
  readonly providers!: 'sandbox' | 'live';
  /** Unset when live providers leave the gateway out (outside production only). */
  readonly gatewayOne!: GatewayOneSettings | undefined;
  readonly gatewayTwo!: GatewayTwoSettings | undefined;
  readonly mailTransport!: string;
  readonly mailFrom!: string;
  /** The transactional e-mail provider's HTTP API (sites with `email_provider: mailer`); keys are per site. */
  readonly mailerBaseUrl!: string | undefined;
  /** The print-on-demand provider (DESIGN §7, fulfilment); unset: paid merch orders wait for it. */
  readonly fulfilment!: FulfilmentSettings | undefined;
  /** Signs the website builder's form-submission webhooks (`POST /cms/webhook`); unset: every one is refused. */
  readonly cmsWebhookSecret!: string | undefined;
  /** The contact-list and analytics providers' HTTP APIs (keys are per site); unset: not sent. */
  readonly contactsvcBaseUrl!: string | undefined;
  readonly analyticsBaseUrl!: string | undefined;
  /** The marketing-automation provider (its person id is the profile's `marketing_id`). */
  readonly marketingBaseUrl!: string | undefined;
  readonly jobs!: boolean;
  readonly metricsToken!: string | undefined;
  readonly trustProxy!: string;
  /** Hosts a site's settings may name although they resolve to private addresses (production only). */
  readonly allowedPrivateHosts!: string[];
  /**
   * `standard`: argon2id with the library's defaults (64 MiB, 3 passes). `light` (1 MiB, 1 pass) is for the test
   * suite alone, whose sign-ups and sign-ins would otherwise spend minutes hashing: no variable sets it
   * (`loadConfig` always gives `standard`); only a test's own configuration can.
   */
  readonly passwordHashing!: 'standard' | 'light';

  static of(values: AppConfig): AppConfig {
    return Object.freeze(Object.assign(new AppConfig(), values));
  }
}
