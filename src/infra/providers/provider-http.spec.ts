import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ProviderError } from './provider-error.js';
import { ProviderHttp } from './provider-http.js';

/** A loopback server whose answer each test decides. */
async function serve(handler: RequestListener): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 5));
}

const client = (baseUrl: string, timeoutMs = 150) =>
  new ProviderHttp({ provider: 'gw', baseUrl, timeoutMs, headers: {}, secrets: [] });

describe('ProviderHttp', () => {
  let server: Server | undefined;
  afterEach(async () => {
    const open = server;
    server = undefined;
    if (!open) return;
    open.closeAllConnections();
    await new Promise((resolve) => open.close(resolve));
  });

  it('answers the status and the JSON object the provider sent', async () => {
    const s = await serve((_req, res) => res.writeHead(201).end('{"id":"x1"}'));
    server = s.server;
    expect(await client(s.url).send({ method: 'GET', path: '/a' })).toEqual({
      status: 201,
      body: { id: 'x1' },
    });
  });

  const silent: RequestListener = () => undefined;
  const stalling: RequestListener = (_req, res) => void res.writeHead(200).write('{"id":');

  it.each([
    ['sends nothing', silent],
    ['sends its headers and then stalls in the body', stalling],
  ])('gives up within its timeout on a provider that %s', async (_what, handler) => {
    const s = await serve(handler);
    server = s.server;
    const started = Date.now();
    const error = await client(s.url)
      .send({ method: 'GET', path: '/slow' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'unavailable', message: 'gw GET /slow: no answer within 150 ms' });
    expect((error as ProviderError).mayHaveActed).toBe(true); // it read the request: a write may have been done
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('says a request that timed out waiting for a connection never reached the provider', async () => {
    const received: string[] = [];
    const s = await serve((req) => void received.push(req.url ?? ''));
    server = s.server;
    // A provider that never answers holds every connection the pool has to a host (64) ...
    const holding = Array.from({ length: 64 }, (_, i) =>
      client(s.url, 1_000)
        .send({ method: 'POST', path: `/held${i}` })
        .then(
          () => undefined,
          (e: unknown) => e as ProviderError,
        ),
    );
    await until(() => received.length === 64);
    // ... so one more request waits for a connection until its own timeout, sending nothing.
    const waited = (await client(s.url, 200)
      .send({ method: 'POST', path: '/waited' })
      .catch((e: unknown) => e)) as ProviderError;
    expect(waited.message).toBe('gw POST /waited: no answer within 200 ms');
    expect(waited.mayHaveActed).toBe(false);
    const held = await Promise.all(holding);
    expect(held.every((e) => e?.mayHaveActed)).toBe(true); // those were read: a write may have been done
    expect(received).not.toContain('/waited');
  });

  it('says a refused connection is a network error, not a timeout', async () => {
    const s = await serve(() => undefined);
    const { url } = s;
    await new Promise((resolve) => s.server.close(resolve));
    const error = await client(url)
      .send({ method: 'GET', path: '/gone' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'unavailable', message: 'gw GET /gone: network error econnrefused' });
    expect((error as ProviderError).mayHaveActed).toBe(false); // it never reached the provider
  });

  it('names the path by its label in errors when it holds personal data', async () => {
    const s = await serve((_req, res) => res.writeHead(503).end('{}'));
    server = s.server;
    const error = await client(s.url)
      .send({ method: 'DELETE', path: '/contacts/ann%40example.com', pathLabel: '/contacts/{email}' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ message: 'gw DELETE /contacts/{email} answered 503' });
  });

  it.each([
    [503, false], // turned away before any work
    [429, false], // asked to come back later: not a refusal of the request
    [425, false],
    [408, false],
    [500, true],
    [502, true], // a proxy's answer: the provider behind it may have acted
    [504, true],
  ])('says whether a provider answering %s may have acted on the request', async (status, mayHaveActed) => {
    const s = await serve((_req, res) => res.writeHead(status).end('{}'));
    server = s.server;
    const error = await client(s.url)
      .send({ method: 'POST', path: '/refund' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'unavailable', httpStatus: status, mayHaveActed });
  });

  it('tries a read again after a provider asked it to come back later', async () => {
    let calls = 0;
    const s = await serve((_req, res) => {
      if (calls++) res.writeHead(200).end('{"ok":true}');
      else res.writeHead(429).end();
    });
    server = s.server;
    const answer = await new ProviderHttp({
      provider: 'gw',
      baseUrl: s.url,
      timeoutMs: 2_000,
      headers: {},
      secrets: [],
      backoffMs: [10],
    }).send({ method: 'GET', path: '/a', retry: true });
    expect(answer).toEqual({ status: 200, body: { ok: true } });
    expect(calls).toBe(2);
  });
});
