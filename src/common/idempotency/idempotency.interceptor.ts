import { randomUUID } from 'node:crypto';
import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  Logger,
  type NestInterceptor,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { defer, mergeMap, type Observable, of, catchError } from 'rxjs';
import { toErrorResponse } from '#app/common/errors/error-response.js';
import { errorPayload } from '#app/common/errors/problem-details.filter.js';
import type { AppRequest } from '#app/common/http/request-context.js';
import { IDEMPOTENT } from './idempotency.decorator.js';
import { IdempotencyRepository, type StoredKey } from './idempotency.repository.js';
import {
  IDEMPOTENCY_ERRORS,
  REPLAYED_HEADER,
  existingKeyOutcome,
  idempotencyScope,
  parseIdempotencyKey,
  requestHash,
  shouldStore,
} from './idempotency.rules.js';

/** Success headers worth replaying; framework headers (request id, security) are set afresh each time. */
const KEPT_HEADERS = ['location', 'link', 'x-next-cursor'];

interface Claim {
  scope: string;
  key: string;
  owner: string;
}

/**
 * `@Idempotent()` routes (DESIGN §6). Runs after the guards and before the pipes: the key is claimed
 * (one autocommitted INSERT), the handler runs in its own transaction, then its answer (success or the
 * error the global filter will send) is stored for replay. 5xx and validation failures free the key.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Idempotency');

  constructor(
    private readonly reflector: Reflector,
    private readonly keys: IdempotencyRepository,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    if (context.getType() !== 'http' || !this.reflector.get<boolean>(IDEMPOTENT, context.getHandler()))
      return next.handle();
    const req = context.switchToHttp().getRequest<AppRequest>();
    const res = context.switchToHttp().getResponse<Response>();
    const key = parseIdempotencyKey(req.headers['idempotency-key']);
    if (key === undefined) return next.handle();

    const routePath = (req.route as { path?: unknown } | undefined)?.path;
    const route = `${req.baseUrl}${typeof routePath === 'string' ? routePath : req.path}`;
    const scope = idempotencyScope(req.method, route, req.user?.id, req.siteId);
    const hash = requestHash({ path: req.path, query: req.query, body: req.body });
    const claim: Claim = { scope, key, owner: randomUUID() };
    const existing = await this.claimOrFind(claim, hash);
    if (existing) return of(this.replay(existing, hash, res));

    return next.handle().pipe(
      mergeMap(async (body: unknown) => {
        await this.store(claim, { status: res.statusCode, body, headers: keptHeaders(res) });
        return body;
      }),
      catchError((error: unknown) =>
        defer(async () => {
          await this.settleFailure(claim, error, req);
          throw error;
        }),
      ),
    );
  }

  /** Null when this request owns the key now; else the live row another request left. */
  private async claimOrFind(claim: Claim, hash: string): Promise<StoredKey | null> {
    // A row can vanish between the two statements (released after a 5xx, or purged): claim again.
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await this.keys.claim(claim.scope, claim.key, hash, claim.owner)) return null;
      const row = await this.keys.findLive(claim.scope, claim.key);
      if (row) return row;
    }
    throw IDEMPOTENCY_ERRORS.inUse();
  }

  private replay(row: StoredKey, hash: string, res: Response): unknown {
    const outcome = existingKeyOutcome(row, hash);
    if (outcome === 'reused') throw IDEMPOTENCY_ERRORS.reused();
    if (outcome === 'in_use') throw IDEMPOTENCY_ERRORS.inUse();
    res.status(row.response_status ?? 200);
    for (const [name, value] of Object.entries(row.response_headers ?? {})) res.setHeader(name, value);
    res.setHeader(REPLAYED_HEADER, 'true');
    return row.response_body;
  }

  private async settleFailure(claim: Claim, error: unknown, req: AppRequest): Promise<void> {
    const failure = toErrorResponse(error);
    if (!shouldStore(failure.status, failure.code)) {
      await this.quietly(() => this.keys.release(claim.scope, claim.key, claim.owner));
      return;
    }
    const payload = errorPayload(failure, req);
    await this.store(claim, {
      status: failure.status,
      body: payload.body,
      headers: { ...lowerCased(failure.headers), 'content-type': payload.contentType },
    });
  }

  private store(
    claim: Claim,
    response: { status: number; body: unknown; headers: Record<string, string> },
  ): Promise<void> {
    // The business change has committed: failing to keep its answer must not turn it into an error.
    return this.quietly(() => this.keys.complete(claim.scope, claim.key, claim.owner, response));
  }

  private async quietly(work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      this.logger.error({ err: error }, 'could not record an idempotent answer');
    }
  }
}

function lowerCased(headers: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
  );
}

function keptHeaders(res: Response): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = res.getHeader(name);
    if (typeof value === 'string') kept[name] = value;
  }
  return kept;
}
