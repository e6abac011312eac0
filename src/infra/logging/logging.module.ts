import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Global, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { pino } from 'pino';
import type { Options } from 'pino-http';
import type { AppRequest } from '#app/common/http/request-context.js';
import { AppConfig } from '#app/config/app-config.js';
import { redactPaths, scrubUrl } from './redact.js';

/** Probes and scrapes arrive every few seconds; logging each one would drown the real traffic. */
const QUIET_PATH = /^\/(?:health\/[^?#]*|metrics\/?)(?:[?#]|$)/;

export function isQuietPath(url: string | undefined): boolean {
  return url !== undefined && QUIET_PATH.test(url);
}

/** The request as pino-http hands it over (unwrapped), of which we keep what identifies it. */
interface LoggedRequest {
  id?: unknown;
  method?: string;
  url?: string;
  originalUrl?: string;
  remoteAddress?: string;
  socket?: { remoteAddress?: string };
}

/** The pino-http options; a pure function of the level so tests can check them without Nest. */
export function pinoHttpOptions(level: string): Options {
  return {
    level,
    // The request-id middleware runs before pino-http (app.use precedes module middleware), so this
    // normally reuses its id; the UUID is only for requests that bypassed it.
    genReqId: (req: IncomingMessage) => (req as AppRequest).id || randomUUID(),
    customProps: (req: IncomingMessage) => ({ request_id: (req as AppRequest).id }),
    redact: redactPaths(),
    // Our serializers take the request and response themselves: pino's standard wrappers would copy
    // every header of both on each request only for us to drop them (a request log is on every hot path).
    wrapSerializers: false,
    serializers: {
      // Headers, query and params are left out: they are where tokens and personal data travel.
      req: (req: LoggedRequest) => ({
        id: req.id,
        method: req.method,
        url: scrubUrl(req.originalUrl ?? req.url),
        remoteAddress: req.remoteAddress ?? req.socket?.remoteAddress,
      }),
      res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
    },
    autoLogging: {
      // Nest mounts this middleware with app.use(path), which rewrites req.url; originalUrl is the real one.
      ignore: (req: IncomingMessage) => isQuietPath((req as Partial<AppRequest>).originalUrl ?? req.url),
    },
  };
}

/** Structured JSON logs (pino) carrying the request id, with secrets redacted (DESIGN §9). */
@Global()
@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        pinoHttp: config.logFile
          ? [
              pinoHttpOptions(config.logLevel),
              pino.destination({ dest: config.logFile, sync: true, mkdir: true }),
            ]
          : pinoHttpOptions(config.logLevel),
      }),
    }),
  ],
  exports: [LoggerModule],
})
export class LoggingModule {}
