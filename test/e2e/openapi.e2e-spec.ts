import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { ModulesContainer } from '@nestjs/core';
import { AUTH_POLICY } from '#app/common/auth/auth.decorators.js';
import { buildOpenApiDocument, stableJson } from '#app/common/openapi/swagger.js';
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
