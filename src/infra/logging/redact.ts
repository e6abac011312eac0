/** Fields that carry secrets wherever they appear in a logged object (one level deep and at the top). */
const SECRET_FIELDS = [
  'password',
  'token',
  'refresh_token',
  'access_token',
  // Site configuration secrets (DESIGN §8) and their transport forms.
  'smtp_password',
  'mailer_api_key',
  'contactsvc_api_key',
  'analytics_api_key',
  'pass',
  'apiKey',
] as const;

/**
 * What pino must never write (DESIGN §9: no secrets or tokens in logs). Kept as a pure function so a unit
 * test can assert the list without booting the logger.
 */
export function redactPaths(): string[] {
  return [
    'req.headers.authorization',
    'req.headers.cookie',
    'req.headers["x-api-key"]',
    'req.headers["api-key"]',
    'res.headers["set-cookie"]',
    // fast-redact's `*.x` matches one level down only, so the bare name covers `logger.info({ token })`.
    ...SECRET_FIELDS.flatMap((field) => [field, `*.${field}`]),
  ];
}

/** Query parameters whose value is a secret: `token`, `access_token`, `refresh_token`, `spin_token`... */
const SECRET_QUERY = /([?&][^=&#]*token=)[^&#]*/gi;

/** Paths whose next segment is itself a secret (the fulfilment provider's callback token, DESIGN §10). */
const SECRET_PATH = /^(\/merch\/fulfilment\/callback\/)[^/?#]+/;

export const REDACTED = '[REDACTED]';

/** The URL as it may be logged: token values in the query string and in secret path segments replaced. */
export function scrubUrl(url: string | undefined): string | undefined {
  if (!url) return url;
  return url.replace(SECRET_PATH, `$1${REDACTED}`).replace(SECRET_QUERY, `$1${REDACTED}`);
}
