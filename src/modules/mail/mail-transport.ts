import type { AppConfig } from '#app/config/app-config.js';

/**
 * The default transport (sites without SMTP settings of their own): `log` writes each message to the
 * outbox as a raw .eml instead of sending it; an smtp:// URL sends through that server.
 */
export function defaultTransport(
  config: AppConfig,
): string | { streamTransport: true; buffer: true; newline: 'unix' } {
  if (config.mailTransport === 'log') return { streamTransport: true, buffer: true, newline: 'unix' };
  return config.mailTransport;
}

export function isLogTransport(config: AppConfig): boolean {
  return config.mailTransport === 'log';
}
