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
    // The request id is bound once, as `request_id`, on the child that the response line and every log
    // written while serving the request share (`customProps` would bind it again and re-check it per line).
    quietReqLogger: true,
    customAttributeKeys: { reqId: 'request_id' },
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

/**
 * Standard output, as the service logs in production: lines gathered up to 4 KB (or for a second, when
 * traffic is light) and written off the event loop. Pino's default writes every line on its own, each a
 * trip through libuv's thread pool and back, on every request; a rush now writes a dozen lines at once.
 * The buffer is written out when the process exits (pino flushes it on `exit`); a SIGKILL loses at most
 * the last second.
 */
export const STDOUT_LOG = { dest: 1, sync: false, minLength: 4096, periodicFlush: 1000 } as const;

/** Structured JSON logs (pino) carrying the request id, with secrets redacted (DESIGN §9). */
@Global()
@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        pinoHttp: [
          pinoHttpOptions(config.logLevel),
          // LOG_FILE is written line by line: what is read there is complete when the request is answered.
          pino.destination(config.logFile ? { dest: config.logFile, sync: true, mkdir: true } : STDOUT_LOG),
        ],
      }),
    }),
  ],
  exports: [LoggerModule],
})
export class LoggingModule {}
