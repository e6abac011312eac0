import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pinoHttp } from 'pino-http';
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
  });

  it('binds the request id as request_id, on the request line and on what is logged while serving it', async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    });
    const log = pinoHttp(pinoHttpOptions('info'), sink);
    const server = createServer((req, res) => {
      (req as IncomingMessage & { id: string }).id = 'req-7';
      log(req, res);
      req.log.info('serving');
      res.end('ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    await fetch(`http://127.0.0.1:${port}/raffles`).then((r) => r.text());
    await new Promise<void>((r) => server.close(() => r()));
    await new Promise((r) => setImmediate(r));

    expect(lines.find((l) => l.msg === 'serving')).toMatchObject({ request_id: 'req-7' });
    expect(lines.find((l) => l.msg === 'request completed')).toMatchObject({
      request_id: 'req-7',
      req: { id: 'req-7', method: 'GET', url: '/raffles' },
      res: { statusCode: 200 },
    });
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
