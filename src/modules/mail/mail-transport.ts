import type { AppConfig } from '#app/config/app-config.js';
import { isLoopbackHost } from '#app/common/net/host-policy.rules.js';

/** Renders the message to a buffer instead of sending it: the outbox keeps it as a raw .eml. */
export const STREAM_TRANSPORT = { streamTransport: true, buffer: true, newline: 'unix' } as const;

/** The named transporter of sites whose `email_provider` is `log`. */
export const OUTBOX_TRANSPORTER = 'outbox';

/**
 * Open SMTP connections reused across messages (nodemailer's pool): a sale's e-mails go out over a few
 * warm connections instead of a connect, greeting and login each.
 */
const POOL = { pool: true, maxConnections: 5, maxMessages: 100 } as const;

/**
 * The default transport (sites without SMTP settings of their own): `log` writes each message to the
 * outbox as a raw .eml instead of sending it; an smtp:// URL sends through that server, pooled.
 */
export function defaultTransport(
  config: AppConfig,
): typeof STREAM_TRANSPORT | ({ url: string } & typeof POOL) {
  if (config.mailTransport === 'log') return STREAM_TRANSPORT;
  return { url: config.mailTransport, ...POOL };
}

export function isLogTransport(config: AppConfig): boolean {
  return config.mailTransport === 'log';
}

/**
 * A site's own SMTP server, with timeouts short enough that a dead server fails the job, not hangs it. A login
 * is sent only over TLS (`requireTLS`: STARTTLS or nothing, the server's certificate verified) unless the port is
 * 465 (TLS from the start) or the server is this machine: left to nodemailer's default, a man in the middle who
 * removes the server's STARTTLS offer would read the site's SMTP password off the wire.
 */
export function siteSmtpOptions(settings: {
  host: string;
  port: number | null;
  username: string | null;
  password: string | null;
}): Record<string, unknown> {
  const port = settings.port ?? 587;
  return {
    host: settings.host,
    port,
    secure: port === 465,
    ...(settings.username ? { auth: { user: settings.username, pass: settings.password ?? '' } } : {}),
    requireTLS: !!settings.username && port !== 465 && !isLoopbackHost(settings.host),
    ...POOL,
    maxConnections: 3,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  };
}
