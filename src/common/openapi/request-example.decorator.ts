import { ApiExtension } from '@nestjs/swagger';

export const REQUEST_EXAMPLE = 'x-request-example';

export interface RequestExample {
  /** One line, shown in Swagger UI's example list. */
  summary: string;
  /** What the example assumes (earlier steps, ids to replace). */
  description?: string;
  value: unknown;
}

/**
 * The body Swagger UI's "Try it out" starts from. It must succeed on a fresh sandbox set up as the
 * README says (site `main`, the README's admin), after the steps before it in the example walk
 * (`test/e2e/examples.e2e-spec.ts`), which runs every example against the app. The document builder
 * moves it into the request body's `examples`.
 */
export function ApiRequestExample(example: RequestExample): MethodDecorator {
  return ApiExtension(REQUEST_EXAMPLE, example);
}

export const CALLED_BY = 'x-called-by';

/**
 * A route only an outside system can call with a valid body (a signed or encrypted webhook): it has no
 * request example, and says who calls it. The sandbox's pay pages send real ones.
 */
export function ApiCalledBy(provider: string): MethodDecorator {
  return ApiExtension(CALLED_BY, provider);
}
