import { EXAMPLE_ADMIN } from '#app/modules/auth/auth.examples.js';
import { api } from '../support/api';
import { type Values, WALK, type WalkStep } from '../support/example-walk';
import { type SandboxApp, startSandboxApp } from '../support/sandbox-app';

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  example?: unknown;
  schema?: { example?: unknown };
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { examples?: Record<string, { value: unknown }> }> };
  responses: Record<string, unknown>;
}
interface Found {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  op: Operation;
}

const exampleOf = (p: Parameter): unknown => p.example ?? p.schema?.example;
const bodyExample = (op: Operation): unknown =>
  Object.values(op.requestBody?.content?.['application/json']?.examples ?? {})[0]?.value;

/** An operation "has a request example" when its body or any of its parameters has one. */
function hasExample(op: Operation): boolean {
  return bodyExample(op) !== undefined || (op.parameters ?? []).some((p) => exampleOf(p) !== undefined);
}

function operations(doc: { paths: Record<string, Record<string, Operation>> }): Found[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ method: method as Found['method'], path, op })),
  );
}

const text = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : JSON.stringify(value);

/** The request an example makes: path and query from examples and the step's values. */
function requestOf(found: Found, step: WalkStep, v: Values): { url: string; body: unknown } {
  const given: Partial<Record<string, string>> = step.params?.(v) ?? {};
  let url = found.path;
  const query = new URLSearchParams();
  for (const p of found.op.parameters ?? []) {
    const value: unknown = given[p.name] ?? exampleOf(p);
    if (p.in === 'path') {
      if (value === undefined)
        throw new Error(`${found.path}: no value for {${p.name}}: give it an example or a step value`);
      url = url.replace(`{${p.name}}`, encodeURIComponent(text(value)));
    } else if (p.in === 'query' && value !== undefined) {
      for (const one of Array.isArray(value) ? value : [value]) query.append(p.name, text(one));
    }
  }
  const example = bodyExample(found.op);
  const body =
    example === undefined
      ? undefined
      : { ...(example as Record<string, unknown>), ...(step.body?.(v) ?? {}) };
  return { url: query.size ? `${url}?${query.toString()}` : url, body };
}

describe('every request example of the document works on a fresh sandbox, walked in a newcomer’s order', () => {
  let w: SandboxApp;
  let found: Found[];
  const v: Values = {};

  beforeAll(async () => {
    // As the README starts it: ADMIN_EMAIL, ADMIN_PASSWORD, ADMIN_SITE_ID=main, the sandbox, the outbox.
    w = await startSandboxApp({
      admin: { email: EXAMPLE_ADMIN.email, password: EXAMPLE_ADMIN.password, siteId: 'main' },
      defaultSiteId: 'main',
      mailTransport: 'log',
    });
    const doc = await api(w.app).get('/docs-json').expect(200);
    found = operations(doc.body as { paths: Record<string, Record<string, Operation>> });
  });
  afterAll(async () => {
    await w.close();
  });

  it('places every operation that has a request example in the walk (test/support/example-walk.ts)', () => {
    const walked = new Set(WALK.map((step) => step.operationId));
    const unplaced = found.filter(({ op }) => hasExample(op) && !walked.has(op.operationId));
    expect(
      unplaced.map(({ method, path, op }) => `${op.operationId}: ${method.toUpperCase()} ${path}`),
    ).toEqual([]);
    const known = new Set(found.map(({ op }) => op.operationId));
    expect(WALK.map((step) => step.operationId).filter((id) => !known.has(id))).toEqual([]);
  });

  for (const step of WALK) {
    it(`${step.operationId} answers its documented success with its example`, async () => {
      const op = found.find((f) => f.op.operationId === step.operationId);
      if (!op) throw new Error(`${step.operationId} is not in the document`);
      await step.before?.(w, v);
      const { url, body } = requestOf(op, step, v);
      const token = step.as === 'admin' ? v.admin : step.as === 'user' ? v.user : undefined;
      if (step.as !== 'none' && !token) throw new Error(`no ${step.as} token yet: an earlier step failed`);
      let req = api(w.app).as(token)[op.method](url);
      if (body !== undefined) req = req.send(body as object);
      const res = await req;
      const success = Object.keys(op.op.responses).find((status) => /^2\d\d$/.test(status));
      expect(
        `${op.method.toUpperCase()} ${url} → ${res.status} ${res.status === Number(success) ? '' : res.text}`,
      ).toBe(`${op.method.toUpperCase()} ${url} → ${success} `);
      step.keep?.(res.body as Record<string, unknown>, v);
    });
  }
});
