import { IncomingMessage, type Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type express from 'express';
import { AppExpressAdapter } from './express-adapter.js';

type ExpressApp = express.Application & { request: object; response: object };

/** An adapter's server on loopback with one route, noting each request's prototypes as the server made them. */
async function served(): Promise<{ url: string; server: Server; born: boolean[][] }> {
  const adapter = new AppExpressAdapter();
  adapter.initHttpServer({});
  const app = adapter.getInstance<ExpressApp>();
  app.get('/who', (req, res) => {
    res.status(201).json({ path: req.path, host: req.hostname, instance: req instanceof IncomingMessage });
  });
  const server = adapter.getHttpServer() as Server;
  const born: boolean[][] = [];
  // Before Express sees them: what the server itself made.
  server.prependListener('request', (req, res) => {
    born.push([Object.getPrototypeOf(req) === app.request, Object.getPrototypeOf(res) === app.response]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, born };
}

describe('AppExpressAdapter', () => {
  it('makes requests and responses with Express’s prototypes, so Express has none to set', async () => {
    const { url, server, born } = await served();
    try {
      const answers = await Promise.all([fetch(`${url}/who`), fetch(`${url}/who?x=1`)]);
      expect(answers.map((a) => a.status)).toEqual([201, 201]);
      expect(await answers[0].json()).toEqual({ path: '/who', host: '127.0.0.1', instance: true });
      expect(born).toEqual([
        [true, true],
        [true, true],
      ]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('still builds Node’s own request and response objects', async () => {
    const { url, server } = await served();
    const seen: unknown[] = [];
    server.prependListener('request', (req, res) => {
      seen.push(req instanceof IncomingMessage, res instanceof ServerResponse, typeof res.writeHead);
    });
    try {
      await (await fetch(`${url}/who`)).text();
      expect(seen).toEqual([true, true, 'function']);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('leaves the server to Nest where an option asks Nest to track connections', async () => {
    const adapter = new AppExpressAdapter();
    adapter.initHttpServer({ forceCloseConnections: true });
    const app = adapter.getInstance<ExpressApp>();
    app.get('/who', (_req, res) => res.end());
    const server = adapter.getHttpServer() as Server;
    const born: unknown[] = [];
    server.prependListener('request', (req) => born.push(Object.getPrototypeOf(req) === app.request));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      await (await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/who`)).text();
      expect(born).toEqual([false]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
