import type { OpenAPIObject } from '@nestjs/swagger';
import { problem } from '#app/common/errors/problem.js';
import { finishDocument, ORDER_FAILURE_REF } from './document.rules.js';

const PROBLEM = { $ref: '#/components/schemas/ProblemDto' };
const refused = problem(409, 'RAFFLE_CLOSED', 'This raffle is not open for entries.', 'req-1');

function doc(path: string): OpenAPIObject {
  return {
    openapi: '3.0.0',
    info: { title: 't', version: '1' },
    paths: {
      [path]: {
        post: {
          'x-request-example': { summary: 'Two tickets', value: { quantity: 2 } },
          requestBody: { content: { 'application/json': { schema: { type: 'object' } } } },
          responses: {
            '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } },
            '409': {
              description: 'RAFFLE_CLOSED',
              content: { 'text/csv': { schema: PROBLEM, examples: { RAFFLE_CLOSED: { value: refused } } } },
            },
          },
        },
      },
    },
  } as unknown as OpenAPIObject;
}

type Responses = Record<
  string,
  { content?: Record<string, { schema?: unknown; examples?: Record<string, unknown> }> }
>;

function responsesOf(document: OpenAPIObject, path: string): Responses {
  return (document.paths[path].post as unknown as { responses: Responses }).responses;
}

describe('finishing the document', () => {
  it('documents no parameter as nullable: a query string carries text, never null', () => {
    const document = doc('/raffles');
    const op = document.paths['/raffles'].post as unknown as { parameters: unknown[] };
    op.parameters = [{ in: 'query', name: 'site_id', schema: { type: 'string', nullable: true } }];
    finishDocument(document, []);
    expect(op.parameters).toEqual([{ in: 'query', name: 'site_id', schema: { type: 'string' } }]);
  });

  it('moves a route’s request example into its JSON body', () => {
    const op = finishDocument(doc('/x'), []).paths['/x'].post as unknown as Record<string, never>;
    expect(op['x-request-example']).toBeUndefined();
    expect(op).toMatchObject({
      requestBody: { content: { 'application/json': { examples: { try_it: { value: { quantity: 2 } } } } } },
    });
  });

  it('answers errors as problem+json whatever the route produces', () => {
    const op = responsesOf(finishDocument(doc('/x'), []), '/x');
    expect(Object.keys(op['409'].content ?? {})).toEqual(['application/problem+json']);
    expect(Object.keys(op['200'].content ?? {})).toEqual(['application/json']);
  });

  it('reshapes the order endpoints’ error examples into their own body', () => {
    const media = responsesOf(finishDocument(doc('/order'), ['/order']), '/order')['409'].content?.[
      'application/json'
    ];
    expect(media?.schema).toEqual({ $ref: ORDER_FAILURE_REF });
    expect(media?.examples?.RAFFLE_CLOSED).toEqual({
      value: {
        success: false,
        error: 'This raffle is not open for entries.',
        error_code: 'RAFFLE_CLOSED',
        message: 'This raffle is not open for entries.',
      },
    });
  });
  it('documents what every route can answer: two sites (400), and a body too large where one is taken (413)', () => {
    const finished = responsesOf(finishDocument(doc('/x'), []), '/x');
    const codes = (status: string) =>
      Object.keys(finished[status].content?.['application/problem+json']?.examples ?? {});
    expect(codes('400')).toEqual(['VALIDATION_FAILED']);
    expect(codes('413')).toEqual(['PAYLOAD_TOO_LARGE']);
    const bodiless = doc('/y');
    delete (bodiless.paths['/y'].post as { requestBody?: unknown }).requestBody;
    delete (bodiless.paths['/y'].post as { 'x-request-example'?: unknown })['x-request-example'];
    expect(Object.keys(responsesOf(finishDocument(bodiless, []), '/y'))).toEqual(['200', '400', '409']);
  });

  it('adds the two-site refusal to a 400 the route documents, once, keeping its own codes', () => {
    const d = doc('/x');
    const post = d.paths['/x'].post as unknown as { responses: Responses };
    post.responses['400'] = {
      content: { 'application/json': { schema: PROBLEM, examples: { UNKNOWN_UPSELL: { value: {} } } } },
    };
    const media = responsesOf(finishDocument(d, []), '/x')['400'].content?.['application/problem+json'];
    expect(Object.keys(media?.examples ?? {})).toEqual(['UNKNOWN_UPSELL', 'VALIDATION_FAILED']);
  });
  it('types a nullable reference as an object, as OpenAPI 3.0 asks of every nullable', () => {
    const d = doc('/x');
    const nested = { nullable: true, allOf: [{ $ref: '#/components/schemas/RaffleDto' }] };
    (d as { components?: unknown }).components = { schemas: { Entry: { properties: { raffle: nested } } } };
    const finished = finishDocument(d, []) as unknown as {
      components: { schemas: { Entry: { properties: { raffle: Record<string, unknown> } } } };
    };
    expect(finished.components.schemas.Entry.properties.raffle).toEqual({ ...nested, type: 'object' });
  });
});
