import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { ModulesContainer } from '@nestjs/core';
import { AUTH_POLICY } from '#app/common/auth/auth.decorators.js';
import { ORDER_ROUTES } from '#app/common/http/order-routes.js';
import { ERROR_CATALOGUE } from '#app/common/openapi/error-catalogue.js';
import { API_TAGS, buildOpenApiDocument, stableJson } from '#app/common/openapi/swagger.js';
import { api } from '../support/api';
import { createTestApp, type TestApp } from '../support/app';

describe('the API documents itself', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('commits an openapi.json equal to what the app generates (run `npm run openapi` when this fails)', () => {
    const committed = readFileSync(join(__dirname, '..', '..', 'openapi.json'), 'utf8');
    expect(stableJson(buildOpenApiDocument(t.app))).toBe(committed);
  });

  it('serves Swagger UI at /docs and the document at /docs-json with a bearer scheme', async () => {
    const ui = await api(t.app).get('/docs/').expect(200);
    expect(ui.text).toContain('swagger-ui');
    const doc = await api(t.app).get('/docs-json').expect(200);
    expect(doc.body.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.body.paths['/users/profile'].put.security).toEqual([{ bearer: [] }]);
  });

  it('titles the console for what it is', async () => {
    const ui = await api(t.app).get('/docs/').expect(200);
    expect(ui.text).toContain('<title>Membership, raffle and rewards service · API console</title>');
  });

  describe('as an administrator’s console', () => {
    const doc = (): Doc => buildOpenApiDocument(t.app) as unknown as Doc;

    it('lists its tags in a newcomer’s order, auth first, each with a one-line description', () => {
      const tags = doc().tags ?? [];
      expect(tags[0].name).toBe('auth');
      expect(tags.map((tag) => tag.name)).toEqual(API_TAGS.map((tag) => tag.name));
      for (const tag of tags) {
        expect(tag.description).toMatch(/\S/);
        expect(tag.description).not.toContain('\n');
      }
    });

    it('gives every operation a summary and exactly one registered tag', () => {
      const known = new Set(API_TAGS.map((tag) => tag.name));
      const bad = operations(doc()).filter(
        ({ op }) => !op.summary || op.tags?.length !== 1 || !known.has(op.tags[0]),
      );
      expect(bad.map(({ method, path, op }) => `${method} ${path} ${JSON.stringify(op.tags)}`)).toEqual([]);
    });

    it('puts the admin routes under admin tags, and admin tags on routes that need a token', () => {
      const wrong = operations(doc()).filter(({ path, op }) => {
        const tag = op.tags?.[0] ?? '';
        const adminPath = /^\/(api\/)?admin\//.test(path);
        return (adminPath && !/^(admin: |ops$)/.test(tag)) || (tag.startsWith('admin: ') && !op.security);
      });
      expect(wrong.map(({ method, path, op }) => `${method} ${path}: ${op.tags?.join()}`)).toEqual([]);
    });

    it('shows one example body per error code, with its real code and status', () => {
      const wrong: string[] = [];
      for (const { path, method, op } of operations(doc())) {
        const order = ORDER_ROUTES.includes(path);
        for (const [status, response] of Object.entries(op.responses)) {
          if (Number(status) < 400) continue;
          const type = order ? 'application/json' : 'application/problem+json';
          const examples = Object.values(response.content?.[type]?.examples ?? {});
          if (!examples.length) wrong.push(`${method} ${path} ${status}: no ${type} examples`);
          for (const { value } of examples) {
            const body = value as Record<string, unknown>;
            const code = String(order ? body.error_code : body.code);
            const known = (ERROR_CATALOGUE as Partial<Record<string, { status: number }>>)[code];
            if (known?.status !== Number(status)) wrong.push(`${method} ${path} ${status}: ${code}`);
            if (order) expect(body).toMatchObject({ success: false, error: expect.any(String) });
            else
              expect(body).toMatchObject({
                status: Number(status),
                type: `about:blank#${code.toLowerCase()}`,
              });
          }
        }
      }
      expect(wrong).toEqual([]);
    });

    it('gives every JSON request body an example, unless only a provider can send it', () => {
      const missing = operations(doc())
        .filter(({ op }) => op.requestBody?.content?.['application/json'])
        .filter(({ op }) => !op.requestBody?.content?.['application/json']?.examples && !op['x-called-by']);
      expect(missing.map(({ method, path }) => `${method} ${path}`)).toEqual([]);
    });

    it('starts its description with the steps a newcomer takes', () => {
      const description = doc().info.description;
      for (const step of ['Log in', 'Authorise', 'Create a site', 'Create a raffle', 'Sell a ticket'])
        expect(description).toContain(step);
    });
  });

  it('leads the bare address to the console', async () => {
    const res = await api(t.app).get('/').expect(302);
    expect(res.headers.location).toBe('/docs');
  });

  it('gives every operation a unique operationId', () => {
    const doc = buildOpenApiDocument(t.app);
    const ids = Object.values(doc.paths).flatMap((item) =>
      Object.values(item as Record<string, { operationId?: string }>).map((op) => op.operationId),
    );
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('declares who may call every route: @Public(), @OptionalAuth() or a role', () => {
    const undeclared: string[] = [];
    let routes = 0;
    for (const module of t.app.get(ModulesContainer).values()) {
      for (const wrapper of module.controllers.values()) {
        const controller = wrapper.metatype as (new (...args: never[]) => object) | null;
        if (!controller) continue;
        const classPolicy: unknown = Reflect.getMetadata(AUTH_POLICY, controller);
        const proto = controller.prototype as Record<string, unknown>;
        for (const name of Object.getOwnPropertyNames(proto)) {
          const handler = proto[name];
          if (name === 'constructor' || typeof handler !== 'function') continue;
          if (Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
          routes++;
          const policy: unknown = Reflect.getMetadata(AUTH_POLICY, handler) ?? classPolicy;
          if (!policy)
            undeclared.push(
              `${controller.name}.${name} (${String(Reflect.getMetadata(PATH_METADATA, handler))})`,
            );
        }
      }
    }
    expect(routes).toBeGreaterThan(10);
    expect(undeclared).toEqual([]);
  });
});

interface Media {
  examples?: Record<string, { value: unknown }>;
}
interface Operation {
  summary?: string;
  tags?: string[];
  security?: unknown[];
  requestBody?: { content?: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
  'x-called-by'?: string;
}
interface Doc {
  info: { description: string };
  tags?: Array<{ name: string; description?: string }>;
  paths: Record<string, Record<string, Operation>>;
}

function operations(doc: Doc): Array<{ path: string; method: string; op: Operation }> {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
  );
}
