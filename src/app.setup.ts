import { Logger, type INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import express, { type NextFunction, type Request, type Response } from 'express';
import helmet from 'helmet';
import { Logger as PinoLogger } from 'nestjs-pino';
import type { FieldError } from '#app/common/errors/app.exception.js';
import { REFUSED_BODY_TYPE } from '#app/common/errors/error-response.js';
import { sendError } from '#app/common/errors/problem-details.filter.js';
import type { AppRequest } from '#app/common/http/request-context.js';
import { keepConnectionsAlive } from '#app/common/http/keep-alive.js';
import { requestId } from '#app/common/http/request-id.js';
import {
  type JsonRefusal,
  MAX_JSON_DEPTH,
  nulFields,
  refusedJson,
} from '#app/common/http/json-body.rules.js';
import { ORDER_ROUTES } from '#app/common/http/order-routes.js';
import { buildOpenApiDocument, mountSwagger } from '#app/common/openapi/swagger.js';
import { AppConfig } from '#app/config/app-config.js';
import { SandboxGateways } from '#app/infra/providers/sandbox/sandbox-gateways.js';
import { mountStaffPages } from '#app/modules/auth/staff-pages.js';
import { MetricsService, metricsMiddleware } from '#app/modules/health/metrics.service.js';
import { SandboxSite } from '#app/modules/sandbox-site/sandbox-site.router.js';

export const BODY_LIMIT = '1mb';

/**
 * body-parser passes an error with its own 4xx status through to the error handler below. A NUL names the
 * fields that hold it, as validation would.
 */
function refusal(why: JsonRefusal, text: Uint8Array | string): Error {
  if (why === 'too-deep')
    return Object.assign(new Error(`The request body nests deeper than ${MAX_JSON_DEPTH} levels.`), {
      status: 400,
      type: REFUSED_BODY_TYPE,
    });
  let errors: FieldError[] = [];
  try {
    const parsed: unknown = JSON.parse(typeof text === 'string' ? text : Buffer.from(text).toString('utf8'));
    errors = nulFields(parsed).map((field) => ({
      field,
      message: `${field} holds the NUL character (\\u0000), which cannot be stored`,
    }));
  } catch {
    // Not JSON after all: the refusal says what it found without naming a field.
  }
  return Object.assign(
    new Error('The request body holds the NUL character (\\u0000), which no field can store.'),
    { status: 400, type: REFUSED_BODY_TYPE, errors },
  );
}

/** UTF-8 is scanned as bytes; the other charsets body-parser accepts (UTF-16) are decoded first. */
function textOf(buf: Buffer, encoding: string): Uint8Array | string {
  if (/^utf-?8$/i.test(encoding)) return buf;
  try {
    return new TextDecoder(encoding).decode(buf);
  } catch {
    return buf; // a charset the decoder does not know: JSON.parse will refuse the body anyway
  }
}

/**
 * Everything about the HTTP surface that is not a route: shared by the server, the tests and the
 * OpenAPI generator so that all three see the same application.
 */
/** Swagger UI's scripts are files of its own; only its styles are inline. */
const DOCS_CSP = helmet.contentSecurityPolicy({
  useDefaults: false,
  directives: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    fontSrc: ["'self'", 'data:'],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
});

export function setupApp(app: INestApplication): void {
  const config = app.get(AppConfig);
  const express_ = app as NestExpressApplication;
  express_.useLogger(app.get(PinoLogger));
  express_.set('trust proxy', config.trustProxy);
  keepConnectionsAlive(express_.getHttpServer());
  express_.disable('x-powered-by');
  express_.use(requestId);
  // The order endpoints answer every failure, body-parser's included, in their own shape (DESIGN §4).
  express_.use(ORDER_ROUTES, (req: Request, _res: Response, next: NextFunction) => {
    (req as AppRequest).errorShape = 'order';
    next();
  });
  express_.use(metricsMiddleware(app.get(MetricsService)));
  express_.use(helmet({ contentSecurityPolicy: false }));
  // The console runs administrators' tokens: it may load nothing but its own scripts, be framed by no one.
  express_.use('/docs', DOCS_CSP);
  express_.enableCors({
    origin: config.corsOrigins.length ? config.corsOrigins : false,
    exposedHeaders: ['X-Request-Id', 'X-Next-Cursor', 'Link', 'Retry-After', 'Idempotent-Replayed'],
  });
  // The raw body is kept for webhook signature checks, and refused before parsing when it nests deeper
  // than any recursive walker after it can take, or holds a NUL no column can store (on every route). Parse
  // errors become problem+json here because Express middleware errors never reach Nest's exception filters.
  express_.use(
    express.json({
      limit: BODY_LIMIT,
      verify: (req, _res, buf, encoding) => {
        const text = textOf(buf, encoding);
        const refused = refusedJson(text, MAX_JSON_DEPTH);
        if (refused) throw refusal(refused, text);
        (req as AppRequest).rawBody = buf;
      },
    }),
  );
  express_.use(express.urlencoded({ extended: false, limit: BODY_LIMIT }));
  // A NUL in the path or the query string (`%00`) would reach the database as text no column can hold, and
  // answer 500 wherever a route passes it on (a list's filter, a site id): refused like a body's, on every route.
  express_.use((req: Request, _res: Response, next: NextFunction) => {
    if (!/%00/i.test(req.originalUrl)) {
      next();
      return;
    }
    next(
      Object.assign(new Error('The request URL holds the NUL character (%00), which no field can store.'), {
        status: 400,
        type: REFUSED_BODY_TYPE,
      }),
    );
  });
  mountStaffPages(express_);
  // Fake gateways on the app itself (DESIGN §7), and pages for the links in sites' e-mails; plain
  // Express, so not in the OpenAPI document.
  if (config.providers === 'sandbox') {
    app.get(SandboxGateways).mount(express_);
    app.get(SandboxSite).mount(express_);
  }
  const logger = new Logger('Http');
  express_.use((err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (!err) {
      next();
      return;
    }
    sendError(err, req as AppRequest, res, logger);
  });
  // A newcomer opening the bare address lands on the console, not on a 404.
  (express_.getHttpAdapter().getInstance() as express.Application).get('/', (_req, res) => {
    res.redirect(302, '/docs');
  });
  mountSwagger(app, buildOpenApiDocument(app));
}
