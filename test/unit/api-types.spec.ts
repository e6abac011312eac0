import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * The client types (test/generated/api-types.ts) are generated from the committed openapi.json, which
 * test/e2e/openapi.e2e-spec.ts holds equal to what the app serves: together they keep the typed client
 * current. The check runs the generator itself, so the test and `npm run client:types` cannot disagree.
 */
describe('the generated API client types', () => {
  it('equal what openapi-typescript makes of the committed openapi.json (run `npm run client:types`)', () => {
    const root = join(__dirname, '..', '..');
    const out = execFileSync(process.execPath, [join(root, 'scripts', 'client-types.mjs'), '--check'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(out).toContain('is current');
  }, 60_000);
});
