import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_CATALOGUE } from './error-catalogue.js';

/** Every TypeScript source outside the OpenAPI helpers and tests: where codes are raised. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return path.endsWith(join('common', 'openapi')) ? [] : sources(path);
    return path.endsWith('.ts') && !path.endsWith('.spec.ts') ? [path] : [];
  });
}

describe('the error codes the document shows', () => {
  const code = sources(join(__dirname, '..', '..'))
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');

  it('are all raised somewhere in the service, so no example shows a code it never answers', () => {
    const never = Object.keys(ERROR_CATALOGUE).filter((name) => !code.includes(`'${name}'`));
    expect(never).toEqual([]);
  });

  it('carry an HTTP error status', () => {
    for (const doc of Object.values(ERROR_CATALOGUE)) expect(doc.status).toBeGreaterThanOrEqual(400);
  });
});
