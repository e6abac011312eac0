import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import express from 'express';
import type { GatewayOneSettings, GatewayTwoSettings } from '#app/config/gateway-config.js';
import { FakeGatewayOne } from '#app/infra/providers/gatewayone/fake/fake-gatewayone.js';
import { answerPaymentRead } from '#app/infra/providers/gatewayone/fake/fake-gatewayone.lean.js';
import { FakeGatewayTwo } from '#app/infra/providers/gatewaytwo/fake/fake-gatewaytwo.js';

/** Where gatewayone is mounted. */
const ONE = '/gatewayone';

export interface FakeGateways {
  /** The loopback server's root; the gateways live under `/gatewayone` and `/gatewaytwo`. */
  url: string;
  gatewayOne: FakeGatewayOne;
  gatewayTwo: FakeGatewayTwo;
  /** Overrides for `createTestApp(...)` / `testConfig(...)` pointing the app at these fakes. */
  config: { gatewayOne: GatewayOneSettings; gatewayTwo: GatewayTwoSettings };
  /** Where webhooks go: `<base>/gatewayone/webhook` and `<base>/gatewaytwo/webhook`. */
  setWebhookBaseUrl(base: string | undefined): void;
  close(): Promise<void>;
}

/**
 * Both gateway fakes (the same routers `PROVIDERS=sandbox` mounts) on one real HTTP server on loopback,
 * with fresh random credentials. Tests pass `fakes.config` as configuration overrides. `lean`: gatewayone's
 * checkout status reads are answered without Express (`answerPaymentRead`, for benchmarks,
 * whose harness shares the machine with the app), and are not in its request log.
 */
export async function startFakeGateways(
  options: { webhookBaseUrl?: string; timeoutMs?: number; lean?: boolean } = {},
): Promise<FakeGateways> {
  const app = express();
  let lean: FakeGatewayOne | undefined;
  const server = createServer((req, res) => {
    const url = req.url ?? '';
    if (!(lean && url.startsWith(ONE) && answerPaymentRead(lean, url.slice(ONE.length), req, res)))
      app(req, res);
  }).listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve).once('error', reject);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const timeoutMs = options.timeoutMs ?? 2_000;
  const config = {
    gatewayOne: {
      baseUrl: `${url}${ONE}`,
      entityId: `entity-${randomBytes(4).toString('hex')}`,
      accessToken: `g1-token-${randomBytes(16).toString('hex')}`,
      webhookKey: randomBytes(32).toString('hex'),
      timeoutMs,
    },
    gatewayTwo: {
      baseUrl: `${url}/gatewaytwo`,
      secretKey: `sk_${randomBytes(16).toString('hex')}`,
      webhookSecret: `wsk_${randomBytes(16).toString('hex')}`,
      timeoutMs,
    },
  };
  const gatewayOne = new FakeGatewayOne({ ...config.gatewayOne });
  const gatewayTwo = new FakeGatewayTwo({ ...config.gatewayTwo });
  if (options.lean) lean = gatewayOne;
  app.use(ONE, gatewayOne.router);
  app.use('/gatewaytwo', gatewayTwo.router);
  const setWebhookBaseUrl = (base: string | undefined): void => {
    const root = base?.replace(/\/+$/, '');
    gatewayOne.setWebhookUrl(root && `${root}/gatewayone/webhook`);
    gatewayTwo.setWebhookUrl(root && `${root}/gatewaytwo/webhook`);
  };
  setWebhookBaseUrl(options.webhookBaseUrl);
  return {
    url,
    gatewayOne,
    gatewayTwo,
    config,
    setWebhookBaseUrl,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** Makes a test app reachable over real HTTP on loopback (for webhooks from the fakes); answers its URL. */
export async function listenOnLoopback(app: INestApplication, at = 0): Promise<string> {
  await app.listen(at, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

export interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A webhook receiver on loopback standing in for the app: records what the fakes send, answers 200. */
export async function startReceiver(): Promise<{
  url: string;
  received: Received[];
  close(): Promise<void>;
}> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"received":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** What a shopper's browser does on a hosted page: read it, then press a button. */
export async function pressOnHostedPage(
  payUrl: string,
  decision: 'pay' | 'decline' | 'cancel',
): Promise<Response> {
  const pageRes = await fetch(payUrl);
  expect(pageRes.status).toBe(200);
  expect(pageRes.headers.get('content-type')).toMatch(/text\/html/);
  const html = await pageRes.text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  expect(action).toBeDefined();
  return fetch(
    new URL(
      action!.replace(/&#(\d+);/g, (_m, c: string) => String.fromCharCode(Number(c))),
      payUrl,
    ),
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ decision }).toString(),
      redirect: 'manual',
    },
  );
}
