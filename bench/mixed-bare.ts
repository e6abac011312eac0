import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { Controller, Get, type INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppExpressAdapter } from '#app/common/http/express-adapter.js';
import { answerParent } from './ipc-child.js';

/**
 * The ceiling of `bench:mixed`: a bare NestJS application (Express, as the service) with one GET route
 * answering a small JSON, in a process of its own like the app's, loaded by the same autocannon at the
 * same connections in the same run. What the framework and the machine give before any work is done. It
 * runs on the service's own HTTP server (`AppExpressAdapter`), so the ratio compares work, not servers.
 */
@Controller()
class BareController {
  @Get('ping')
  ping(): { ok: boolean; at: string } {
    return { ok: true, at: new Date().toISOString() };
  }
}

@Module({ controllers: [BareController] })
class BareModule {}

let app: INestApplication | undefined;

async function init(): Promise<string> {
  app = await NestFactory.create(BareModule, new AppExpressAdapter(), { logger: false });
  await app.listen(0, '127.0.0.1');
  return `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
}

answerParent((command: { cmd: string }) =>
  command.cmd === 'init'
    ? init()
    : command.cmd === 'cpu'
      ? Promise.resolve(process.cpuUsage())
      : (app?.close() ?? Promise.resolve()).then(() => null),
);
