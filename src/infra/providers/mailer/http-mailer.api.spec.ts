import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpMailerApi } from './http-mailer.api.js';
import { MailerApiError } from './mailer.api.js';

const EMAIL = { templateId: 1, to: [{ email: 'a@example.com' }], params: {} };

async function serve(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('the mail provider client', () => {
  it('answers the provider’s message id', async () => {
    const { url, server } = await serve((_req, res) => res.writeHead(201).end('{"messageId":"<m1@x>"}'));
    try {
      await expect(new HttpMailerApi(url).sendTemplate('key', EMAIL)).resolves.toEqual({
        messageId: '<m1@x>',
      });
    } finally {
      server.close();
    }
  });

  it('reports a refusal with the status and the provider’s code, never the key', async () => {
    const { url, server } = await serve((_req, res) =>
      res.writeHead(401).end('{"code":"unauthorized","message":"Key not found"}'),
    );
    try {
      const error = (await new HttpMailerApi(url)
        .sendTemplate('secret-key-123', EMAIL)
        .catch((e: unknown) => e)) as Error;
      expect(error).toBeInstanceOf(MailerApiError);
      expect(error.message).toBe('mail provider answered 401: unauthorized Key not found');
      expect(error.message).not.toContain('secret-key-123');
    } finally {
      server.close();
    }
  });

  it('gives up on a provider that does not answer in time', async () => {
    const { url, server } = await serve(() => undefined);
    try {
      await expect(new HttpMailerApi(url, 50).sendTemplate('key', EMAIL)).rejects.toThrow(
        'mail provider timed out',
      );
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('fails clearly when no MAILER_BASE_URL is configured', async () => {
    await expect(new HttpMailerApi(undefined).sendTemplate('key', EMAIL)).rejects.toThrow(
      'MAILER_BASE_URL is not configured',
    );
  });
});
