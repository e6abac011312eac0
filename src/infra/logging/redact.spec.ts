import { Writable } from 'node:stream';
import pino from 'pino';
import { REDACTED, redactPaths, scrubUrl } from './redact.js';

describe('redactPaths', () => {
  it('covers credentials in headers and secret fields anywhere one level down', () => {
    expect(redactPaths()).toEqual(
      expect.arrayContaining([
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-api-key"]',
        'res.headers["set-cookie"]',
        '*.password',
        '*.token',
        '*.refresh_token',
        '*.access_token',
        '*.smtp_password',
        '*.mailer_api_key',
        '*.contactsvc_api_key',
        '*.analytics_api_key',
      ]),
    );
  });

  it('is accepted by pino and hides the values', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = pino({ redact: redactPaths() }, sink);
    logger.info({
      req: { headers: { authorization: 'Bearer abc', cookie: 'c=1', 'x-api-key': 'k', accept: 'json' } },
      res: { headers: { 'set-cookie': 's=1' } },
      body: { password: 'hunter2', token: 't1', refresh_token: 'r1', access_token: 'a1', email: 'a@b.c' },
      token: 'top',
    });
    const text = lines.join('');
    for (const secret of ['abc', 'c=1', '"k"', 's=1', 'hunter2', 't1', 'r1', 'a1', 'top']) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('a@b.c');
    expect(text).toContain('"accept":"json"');
  });
});

describe('scrubUrl', () => {
  it.each([
    ['/auth/magic-link/verify?token=abc123', `/auth/magic-link/verify?token=${REDACTED}`],
    ['/x?a=1&token=abc&b=2', `/x?a=1&token=${REDACTED}&b=2`],
    ['/x?refresh_token=r&access_token=a', `/x?refresh_token=${REDACTED}&access_token=${REDACTED}`],
    ['/x?TOKEN=abc#frag', `/x?TOKEN=${REDACTED}#frag`],
    ['/x?token=', `/x?token=${REDACTED}`],
    ['/merch/fulfilment/callback/s3cr3t?x=1', `/merch/fulfilment/callback/${REDACTED}?x=1`],
    ['/raffles?site_id=s1&limit=5', '/raffles?site_id=s1&limit=5'],
    ['/tokens/list', '/tokens/list'],
    ['/x?notatoken_name=1', '/x?notatoken_name=1'],
  ])('%s -> %s', (input, expected) => {
    expect(scrubUrl(input)).toBe(expected);
  });

  it('passes empty values through', () => {
    expect(scrubUrl(undefined)).toBeUndefined();
    expect(scrubUrl('')).toBe('');
  });
});
