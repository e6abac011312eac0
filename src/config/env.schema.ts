import { Transform } from 'class-transformer';
import {
  IsEmail,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
} from 'class-validator';

const HEX_64 = /^[0-9a-fA-F]{64}$/;

/**
 * The environment as the service reads it (DESIGN §11). Validated once at start-up so a bad value
 * stops the process with a message naming the variable, instead of failing later on first use.
 */
export class EnvSchema {
  @IsOptional()
  @IsIn(['development', 'production', 'test'])
  NODE_ENV?: string;

  @IsOptional()
  @Transform(({ value }) => (value === undefined ? undefined : Number(value)))
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT?: number;

  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true })
  PUBLIC_BASE_URL?: string;

  @IsOptional()
  @IsString()
  CORS_ORIGINS?: string;

  @IsOptional()
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL?: string;

  /** Write logs to this file instead of standard output. */
  @IsOptional()
  @IsString()
  LOG_FILE?: string;

  @IsOptional()
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL?: string;

  @IsOptional()
  @IsString()
  DATA_DIR?: string;

  @ValidateIf((env: EnvSchema) => env.NODE_ENV === 'production' || env.JWT_SECRET !== undefined)
  @IsString()
  @MinLength(32, { message: 'JWT_SECRET must be at least 32 characters' })
  JWT_SECRET?: string;

  @ValidateIf((env: EnvSchema) => env.NODE_ENV === 'production' || env.SECRETS_KEY !== undefined)
  @Matches(HEX_64, { message: 'SECRETS_KEY must be 64 hexadecimal characters (32 bytes)' })
  SECRETS_KEY?: string;

  /** Rotation: access tokens signed with these (comma-separated) are still accepted until they expire. */
  @IsOptional()
  @IsString()
  JWT_SECRET_PREVIOUS?: string;

  /** Rotation: stored secrets encrypted under these keys (comma-separated, hex) still read. */
  @IsOptional()
  @Matches(/^[0-9a-fA-F]{64}(,[0-9a-fA-F]{64})*$/, {
    message: 'SECRETS_KEY_PREVIOUS must be 64-hexadecimal-character keys separated by commas',
  })
  SECRETS_KEY_PREVIOUS?: string;

  @IsOptional()
  @Matches(/^rediss?:\/\//, { message: 'REDIS_URL must be a redis:// URL' })
  REDIS_URL?: string;

  // As the sign-in form takes it: an address it refuses would make a superadmin nobody can sign in as.
  @IsOptional()
  @IsEmail({}, { message: 'ADMIN_EMAIL must be an e-mail address' })
  ADMIN_EMAIL?: string;

  @ValidateIf((env: EnvSchema) => env.ADMIN_EMAIL !== undefined)
  @IsString({ message: 'ADMIN_PASSWORD is required when ADMIN_EMAIL is set' })
  ADMIN_PASSWORD?: string;

  @IsOptional()
  @Matches(/^[a-z0-9][a-z0-9_-]{0,62}$/, { message: 'ADMIN_SITE_ID must be a lowercase slug' })
  ADMIN_SITE_ID?: string;

  /** The display name of ADMIN_SITE_ID's site when start-up creates it. */
  @IsOptional()
  @IsString()
  @MaxLength(200, { message: 'ADMIN_SITE_NAME must be at most 200 characters' })
  @Matches(/\S/, { message: 'ADMIN_SITE_NAME must not be blank' })
  ADMIN_SITE_NAME?: string;

  @IsOptional()
  @IsIn(['sandbox', 'live'])
  PROVIDERS?: string;

  // Gateways (DESIGN §7, §11). Which are required depends on PROVIDERS and NODE_ENV: gateway-config.ts.
  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true })
  GATEWAYONE_BASE_URL?: string;

  @IsOptional()
  @IsString()
  GATEWAYONE_ENTITY_ID?: string;

  @IsOptional()
  @IsString()
  GATEWAYONE_ACCESS_TOKEN?: string;

  @IsOptional()
  @Matches(HEX_64, { message: 'GATEWAYONE_WEBHOOK_KEY must be 64 hexadecimal characters (32 bytes)' })
  GATEWAYONE_WEBHOOK_KEY?: string;

  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true })
  GATEWAYTWO_BASE_URL?: string;

  @IsOptional()
  @IsString()
  GATEWAYTWO_SECRET_KEY?: string;

  @IsOptional()
  @IsString()
  GATEWAYTWO_WEBHOOK_SECRET?: string;

  @IsOptional()
  @Matches(/^(log|smtps?:\/\/.+)$/, { message: 'MAIL_TRANSPORT must be "log" or an smtp:// URL' })
  MAIL_TRANSPORT?: string;

  @IsOptional()
  @IsString()
  MAIL_FROM?: string;

  @IsOptional()
  @IsUrl(
    { require_tld: false, require_protocol: true },
    { message: 'MAILER_BASE_URL must be an http(s) URL' },
  )
  MAILER_BASE_URL?: string;

  @IsOptional()
  @IsUrl(
    { require_tld: false, require_protocol: true },
    { message: 'FULFILMENT_BASE_URL must be an http(s) URL' },
  )
  FULFILMENT_BASE_URL?: string;

  @IsOptional()
  @IsString()
  FULFILMENT_API_KEY?: string;

  @IsOptional()
  @IsString()
  CMS_WEBHOOK_SECRET?: string;

  @IsOptional()
  @IsUrl(
    { require_tld: false, require_protocol: true },
    { message: 'CONTACTSVC_BASE_URL must be an http(s) URL' },
  )
  CONTACTSVC_BASE_URL?: string;

  @IsOptional()
  @IsUrl(
    { require_tld: false, require_protocol: true },
    { message: 'ANALYTICS_BASE_URL must be an http(s) URL' },
  )
  ANALYTICS_BASE_URL?: string;

  @IsOptional()
  @IsUrl(
    { require_tld: false, require_protocol: true },
    { message: 'MARKETING_BASE_URL must be an http(s) URL' },
  )
  MARKETING_BASE_URL?: string;

  @IsOptional()
  @IsIn(['on', 'off'])
  JOBS?: string;

  @IsOptional()
  @IsString()
  METRICS_TOKEN?: string;

  @IsOptional()
  @IsString()
  TRUST_PROXY?: string;

  @IsOptional()
  @IsString()
  ALLOWED_PRIVATE_HOSTS?: string;
}
