import type { IncomingMessage, ServerResponse } from 'node:http';
import { isQuietPath, pinoHttpOptions } from './logging.module.js';

const asReq = (value: object): IncomingMessage => value as IncomingMessage;

describe('pinoHttpOptions', () => {
  const options = pinoHttpOptions('silent');

  it('takes the level from configuration', () => {
    expect(options.level).toBe('silent');
  });

  it('reuses the request id the middleware set, else makes one', () => {
    const res = {} as ServerResponse;
    expect(options.genReqId?.(asReq({ id: 'req-1' }), res)).toBe('req-1');
    expect(options.genReqId?.(asReq({}), res)).toMatch(/^[0-9a-f-]{36}$/);
    expect(options.customProps?.(asReq({ id: 'req-1' }), res)).toEqual({ request_id: 'req-1' });
  });

  it('keeps only id, method, scrubbed url and address of a request', () => {
    const serialize = options.serializers?.req as (req: object) => object;
    expect(
      serialize({
        id: 'r',
        method: 'GET',
        url: '/a?token=x',
        remoteAddress: '10.0.0.1',
        headers: { authorization: 'Bearer t' },
        query: { token: 'x' },
      }),
    ).toEqual({ id: 'r', method: 'GET', url: '/a?token=[REDACTED]', remoteAddress: '10.0.0.1' });
  });

  it('does not auto-log probes and scrapes, judged on the original URL', () => {
    const ignore = (options.autoLogging as { ignore: (req: IncomingMessage) => boolean }).ignore;
    expect(ignore(asReq({ url: '/', originalUrl: '/health/ready' }))).toBe(true);
    expect(ignore(asReq({ url: '/', originalUrl: '/auth/login' }))).toBe(false);
  });
});

describe('isQuietPath', () => {
  it.each([
    ['/health/live', true],
    ['/health/ready?x=1', true],
    ['/metrics', true],
    ['/metrics?name=x', true],
    ['/healthz', false],
    ['/metricsx', false],
    ['/auth/login', false],
    [undefined, false],
  ])('%s -> %s', (url, quiet) => {
    expect(isQuietPath(url)).toBe(quiet);
  });
});
