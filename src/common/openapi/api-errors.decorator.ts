import { METHOD_METADATA } from '@nestjs/common/constants.js';
import { ApiResponse } from '@nestjs/swagger';
import { problem } from '#app/common/errors/problem.js';
import { ERROR_DOCS, type ErrorCode, STATUS_CODE } from './error-catalogue.js';
import { ProblemDto } from './problem.dto.js';

/** One error a route can answer: its code, and (optionally) the words this route answers it with. */
export type ApiError = ErrorCode | { code: ErrorCode; detail?: string };

/** A bare status stands for the framework's own code for it: 400 VALIDATION_FAILED, 404 NOT_FOUND, … */
type ErrorStatus = 400 | 401 | 403 | 404 | 429;

const ERRORS = 'openapi:errors';
export const EXAMPLE_REQUEST_ID = '6f1c2d0e-3b4a-4c5d-9e8f-0a1b2c3d4e5f';

interface Declared {
  code: ErrorCode;
  detail: string;
}

function declared(entry: ApiError | ErrorStatus): Declared {
  const code =
    typeof entry === 'number' ? STATUS_CODE[entry] : typeof entry === 'string' ? entry : entry.code;
  if (!code) throw new Error(`@ApiErrors(${JSON.stringify(entry)}): name the codes this status answers`);
  const detail = typeof entry === 'object' && entry.detail ? entry.detail : ERROR_DOCS[code].detail;
  return { code, detail };
}

/**
 * Documents the errors a route answers, one example body per code under its status:
 * `@ApiErrors(400, 'UNKNOWN_SITE', 'ITEM_ID_TAKEN')`. Codes add up across decorators (the auth,
 * idempotency and rate-limit decorators declare theirs too), so every status shows every code it can
 * carry. The bodies are problem details; the document builder reshapes them for the order endpoints.
 */
export function ApiErrors(...entries: Array<ApiError | ErrorStatus>): MethodDecorator & ClassDecorator {
  const onMethod = methodErrors(entries);
  return (target: object, key?: string | symbol, descriptor?: PropertyDescriptor) => {
    if (key !== undefined && descriptor) {
      onMethod(target, key, descriptor);
      return;
    }
    // On a controller: every route of it (class decorators run after the methods' own).
    const proto = (target as { prototype: object }).prototype;
    for (const name of Object.getOwnPropertyNames(proto)) {
      const method = Object.getOwnPropertyDescriptor(proto, name);
      const handler: unknown = method?.value;
      if (
        name !== 'constructor' &&
        method &&
        typeof handler === 'function' &&
        Reflect.hasMetadata(METHOD_METADATA, handler)
      )
        onMethod(proto, name, method);
    }
  };
}

function methodErrors(entries: Array<ApiError | ErrorStatus>): MethodDecorator {
  return (target, key, descriptor) => {
    const handler = descriptor.value as object;
    const all: Declared[] = [...((Reflect.getMetadata(ERRORS, handler) as Declared[] | undefined) ?? [])];
    for (const entry of entries) {
      const next = declared(entry);
      if (!all.some((d) => d.code === next.code)) all.push(next);
    }
    Reflect.defineMetadata(ERRORS, all, handler);
    const statuses = new Set(entries.map((e) => ERROR_DOCS[declared(e).code].status));
    for (const status of statuses) {
      const mine = all.filter((d) => ERROR_DOCS[d.code].status === status);
      ApiResponse(
        {
          status,
          type: ProblemDto,
          description: mine.map((d) => `\`${d.code}\`: ${d.detail}`).join('<br>'),
          examples: Object.fromEntries(
            mine.map((d) => [
              d.code,
              {
                summary: d.code,
                value: problem(status, d.code, d.detail, EXAMPLE_REQUEST_ID, ERROR_DOCS[d.code].errors),
              },
            ]),
          ),
        },
        { overrideExisting: true },
      )(target, key, descriptor);
    }
  };
}
