import { IncomingMessage, type Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NestApplicationOptions } from '@nestjs/common';
import type express from 'express';
import { AppExpressAdapter } from './express-adapter.js';

type ExpressApp = express.Application & { request: object; response: object };

/** What one request and its response were as the server made them, before Express saw them. */
interface Born {
  expressRequest: boolean;
  expressResponse: boolean;
  nodeRequest: boolean;
  nodeResponse: boolean;
}

/** An adapter's server on loopback with one route; the requests `paths` were answered with, and each one's birth. */
async function serve(
  options: NestApplicationOptions,
  paths: string[],
): Promise<{ statuses: number[]; born: Born[] }> {
  const adapter = new AppExpressAdapter();
  adapter.initHttpServer(options);
  const app = adapter.getInstance<ExpressApp>();
  app.get('/who', (req, res) => {
    res.status(201).json({ path: req.path, host: req.hostname });
  });
  const server = adapter.getHttpServer() as Server;
  const born: Born[] = [];
  server.prependListener('request', (req, res) => {
    born.push({
      expressRequest: Object.getPrototypeOf(req) === app.request,
      expressResponse: Object.getPrototypeOf(res) === app.response,
      nodeRequest: req instanceof IncomingMessage,
      nodeResponse: res instanceof ServerResponse,
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const answers = await Promise.all(paths.map((path) => fetch(url + path)));
    expect(await answers[0].json()).toEqual({ path: '/who', host: '127.0.0.1' });
    return { statuses: answers.map((a) => a.status), born };
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('AppExpressAdapter', () => {
  it('makes Node’s requests and responses with Express’s prototypes, so Express has none to set', async () => {
    const { statuses, born } = await serve({}, ['/who', '/who?x=1']);
    expect(statuses).toEqual([201, 201]);
    const asExpress = { expressRequest: true, expressResponse: true, nodeRequest: true, nodeResponse: true };
    expect(born).toEqual([asExpress, asExpress]);
  });

  it('leaves the server to Nest where an option asks Nest to track connections', async () => {
    const { statuses, born } = await serve({ forceCloseConnections: true }, ['/who']);
    expect(statuses).toEqual([201]);
    expect(born).toEqual([
      { expressRequest: false, expressResponse: false, nodeRequest: true, nodeResponse: true },
    ]);
  });
});
