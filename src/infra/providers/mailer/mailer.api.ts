/** One templated e-mail through the transactional e-mail provider (Brevo-like, DESIGN §7). */
export interface TemplateEmail {
  templateId: number | string;
  to: Array<{ email: string; name?: string }>;
  params: Record<string, string | number | boolean>;
  bcc?: Array<{ email: string }>;
}

/** The provider behind an interface: the HTTP client in production and tests (against a loopback fake). */
export interface MailerApi {
  /** Sends with the site's own API key; throws MailerApiError when the provider refuses or is unreachable. */
  sendTemplate(apiKey: string, email: TemplateEmail): Promise<{ messageId: string | null }>;
}

export const MAILER_API = Symbol('MAILER_API');

/** Never carries the API key: the message is safe for logs and the activity log. */
export class MailerApiError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
    this.name = 'MailerApiError';
  }
}
