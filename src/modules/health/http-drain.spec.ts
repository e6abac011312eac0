import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HttpAdapterHost } from '@nestjs/core';
import { HttpDrain } from './http-drain.js';

describe('HttpDrain', () => {
  let server: Server;
  let drain: HttpDrain;
  let base: string;
  let release: () => void = () => undefined;

  beforeEach(async () => {
    // A handler that holds every request until the test releases it.
    server = createServer((_req, res) => {
      const held = new Promise<void>((resolve) => (release = resolve));
      void held.then(() => res.end('done'));
    });
    drain = new HttpDrain({ httpAdapter: { getHttpServer: () => server } } as unknown as HttpAdapterHost);
    drain.onApplicationBootstrap();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterEach(async () => {
    release();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('resolves after the quiet time when nothing is in flight, and readiness turns', async () => {
    expect(drain.isDraining).toBe(false);
    const started = performance.now();
    await drain.drain(50, 5_000);
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    expect(drain.isDraining).toBe(true);
  });

  it('waits for a request in flight, and tells its client not to keep the connection', async () => {
    const answer = fetch(base);
    await new Promise((r) => setTimeout(r, 50)); // the request reaches the handler
    let drained = false;
    const done = drain.drain(20, 5_000).then(() => (drained = true));
    await new Promise((r) => setTimeout(r, 100));
    expect(drained).toBe(false);
    release();
    const res = await answer;
    expect(res.headers.get('connection')).toBe('close');
    expect(await res.text()).toBe('done');
    await done;
    expect(drained).toBe(true);
  });

  it('gives up waiting after the longest drain', async () => {
    void fetch(base).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 50));
    const started = performance.now();
    await drain.drain(20, 200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
  });
});
