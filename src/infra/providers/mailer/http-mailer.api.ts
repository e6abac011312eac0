import { type MailerApi, MailerApiError, type TemplateEmail } from './mailer.api.js';

const TIMEOUT_MS = 10_000;

/** `POST {base}/v3/smtp/email` with header `api-key`; 2xx `{messageId}` (DESIGN §7). */
export class HttpMailerApi implements MailerApi {
  constructor(
    private readonly baseUrl: string | undefined,
    private readonly timeoutMs = TIMEOUT_MS,
  ) {}

  async sendTemplate(apiKey: string, email: TemplateEmail): Promise<{ messageId: string | null }> {
    if (!this.baseUrl) throw new MailerApiError('MAILER_BASE_URL is not configured', null);
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}/v3/smtp/email`, {
        method: 'POST',
        headers: { 'api-key': apiKey, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(email),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      // A DOMException from the timeout signal; matched by name (it may come from another realm).
      const name = (error as { name?: unknown } | null)?.name;
      const reason = name === 'TimeoutError' || name === 'AbortError' ? 'timed out' : 'unreachable';
      throw new MailerApiError(`mail provider ${reason}`, null);
    }
    const text = await response.text();
    if (!response.ok) {
      throw new MailerApiError(
        `mail provider answered ${response.status}: ${describeError(text)}`,
        response.status,
      );
    }
    return { messageId: messageIdOf(text) };
  }
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function messageIdOf(text: string): string | null {
  const body = parse(text) as { messageId?: unknown } | null;
  return typeof body?.messageId === 'string' ? body.messageId : null;
}

/** The provider's own code and message, shortened; its body never echoes our key. */
function describeError(text: string): string {
  const body = parse(text) as { code?: unknown; message?: unknown } | null;
  const parts = [body?.code, body?.message].filter((p): p is string => typeof p === 'string');
  return (parts.length ? parts.join(' ') : text || 'no body').slice(0, 200);
}
