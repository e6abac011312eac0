import type { OpenAPIObject } from '@nestjs/swagger';
import { orderFailure, problem, PROBLEM_CONTENT_TYPE, type Problem } from '#app/common/errors/problem.js';
import type { FieldError } from '#app/common/errors/app.exception.js';
import { EXAMPLE_REQUEST_ID } from './api-errors.decorator.js';
import { ERROR_DOCS, type ErrorCode } from './error-catalogue.js';
import type { RequestExample } from './request-example.decorator.js';

const JSON_TYPE = 'application/json';
const TWO_SITES: FieldError[] = [
  { field: 'site_id', message: 'names two different sites (path, query, body or X-Site-Id): name one' },
];
const PROBLEM_REF = '#/components/schemas/ProblemDto';
export const ORDER_FAILURE_REF = '#/components/schemas/OrderFailureDto';

interface Media {
  schema?: { $ref?: string };
  example?: unknown;
  examples?: Record<string, { summary?: string; description?: string; value: unknown }>;
}
interface Operation {
  parameters?: Array<{ schema?: { nullable?: boolean } }>;
  requestBody?: { content?: Record<string, Media> };
  responses?: Record<string, { description?: string; content?: Record<string, Media> }>;
  'x-request-example'?: RequestExample;
  security?: Array<Record<string, string[]>>;
}

/**
 * The last touches the decorators cannot make, on the generated document:
 * - a route's request example (`@ApiRequestExample`) becomes its JSON body's `examples`;
 * - an operation that needs no token says `security: []`;
 * - a parameter is never `nullable`: a query string or a path carries text, never `null` (a query DTO
 *   shares the field decorators that document an optional body field as taking `null`);
 * - the answers every route can give, whatever it declares: 400 for a request naming two sites
 *   (`SiteScopeGuard` runs on every route), 413 for a body over the parser's limit where a body is taken;
 * - a nullable reference (`allOf: [{$ref}]` beside `nullable`) says `type: object`, as OpenAPI 3.0 asks of
 *   every `nullable` (the decorators drop a `type` given with `allOf`);
 * - error answers are `application/problem+json`, except on the order endpoints, whose failures are
 *   `{success: false, error, error_code, message}` (DESIGN §4): their examples are reshaped to match.
 */
export function finishDocument(doc: OpenAPIObject, orderRoutes: readonly string[]): OpenAPIObject {
  for (const schema of Object.values(doc.components?.schemas ?? {})) typeNullableRefs(schema as Schema);
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const op of Object.values(item as Record<string, Operation>)) {
      if (typeof op !== 'object' || !op.responses) continue;
      // A public operation says so (`security: []`) rather than leaving clients to guess.
      op.security ??= [];
      for (const parameter of op.parameters ?? []) delete parameter.schema?.nullable;
      moveRequestExample(op);
      canAnswer(op, 400, 'VALIDATION_FAILED', 'The request names two different sites.', TWO_SITES);
      if (op.requestBody) canAnswer(op, 413, 'PAYLOAD_TOO_LARGE', ERROR_DOCS.PAYLOAD_TOO_LARGE.detail);
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) >= 400) reshapeError(response, orderRoutes.includes(path));
      }
    }
  }
  return doc;
}

interface Schema {
  type?: string;
  nullable?: boolean;
  allOf?: unknown[];
  properties?: Record<string, Schema>;
}

function typeNullableRefs(schema: Schema): void {
  for (const property of Object.values(schema.properties ?? {}))
    if (property.nullable && property.allOf && !property.type) property.type = 'object';
}

/** Documents `code` under `status` on an operation that does not list it yet (as `@ApiErrors` would). */
function canAnswer(
  op: Operation,
  status: number,
  code: ErrorCode,
  detail: string,
  errors: FieldError[] | undefined = ERROR_DOCS[code].errors,
): void {
  const responses = (op.responses ??= {});
  const response = (responses[String(status)] ??= {
    description: '',
    content: { [JSON_TYPE]: { schema: { $ref: PROBLEM_REF } } },
  });
  const media = Object.values(response.content ?? {}).find((m) => m.schema?.$ref === PROBLEM_REF);
  if (!media || media.examples?.[code]) return;
  media.examples = {
    ...media.examples,
    [code]: {
      summary: code,
      value: problem(status, code, detail, EXAMPLE_REQUEST_ID, errors),
    },
  };
  response.description = [response.description, `\`${code}\`: ${detail}`].filter(Boolean).join('<br>');
}

function moveRequestExample(op: Operation): void {
  const example = op['x-request-example'];
  if (!example) return;
  delete op['x-request-example'];
  const media = op.requestBody?.content?.[JSON_TYPE];
  if (!media) throw new Error(`a request example on an operation without a JSON body: ${example.summary}`);
  media.examples = { try_it: example };
}

function reshapeError(response: { content?: Record<string, Media> }, orderRoute: boolean): void {
  // Under whatever type the route produces (text/csv, text/plain…): errors are JSON all the same.
  const media = Object.values(response.content ?? {}).find((m) => m.schema?.$ref === PROBLEM_REF);
  if (!media) return;
  if (!orderRoute) {
    response.content = { [PROBLEM_CONTENT_TYPE]: media };
    return;
  }
  media.schema = { $ref: ORDER_FAILURE_REF };
  for (const example of Object.values(media.examples ?? {})) {
    const p = example.value as Problem;
    example.value = orderFailure(p.code, p.detail, p.errors);
  }
  response.content = { [JSON_TYPE]: media };
}
