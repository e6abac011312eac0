import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXAMPLE_ADMIN } from '#app/modules/auth/auth.examples.js';
import { RAFFLE_EXAMPLE } from '#app/modules/raffles/raffles.examples.js';

const root = join(__dirname, '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const openapi = JSON.parse(readFileSync(join(root, 'openapi.json'), 'utf8')) as {
  paths: Partial<Record<string, Record<string, unknown>>>;
};

describe('the README stands alone', () => {
  it('points at no file outside the repository', () => {
    expect(readme).not.toMatch(/\.\.\//);
  });

  it('names only files that exist in the repository', () => {
    const named = [...readme.matchAll(/`((?:src|test|docs|docker|scripts|\.ci)\/[\w./-]*[\w/])`/g)].map(
      (m) => m[1],
    );
    expect(named.length).toBeGreaterThan(3);
    expect(named.filter((path) => !existsSync(join(root, path)))).toEqual([]);
  });

  it('numbers the spec’s 21 endpoints, saying truly which this build serves', () => {
    const rows = [
      ...readme.matchAll(/^\| (\d+) +\| (GET|POST|PUT|DELETE) +\| `([^`]+)` +\| (yes|not yet[^|]*?) *\|$/gm),
    ];
    expect(rows.map((r) => Number(r[1]))).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
    for (const [, n, method, path, built] of rows) {
      const inDocument = openapi.paths[path]?.[method.toLowerCase()] !== undefined;
      expect(`#${n} ${method} ${path}: ${inDocument ? 'yes' : 'not yet'}`).toBe(
        `#${n} ${method} ${path}: ${built.startsWith('yes') ? 'yes' : 'not yet'}`,
      );
    }
  });

  it('gives the raffle body of the document’s example, and the README’s admin logs in with its example', () => {
    const block = /```json\n([^]*?)```/.exec(readme)?.[1] ?? '';
    expect(JSON.parse(block.replace(/^ {3}/gm, ''))).toEqual(RAFFLE_EXAMPLE);
    expect(readme).toContain(`ADMIN_EMAIL=${EXAMPLE_ADMIN.email} ADMIN_PASSWORD='${EXAMPLE_ADMIN.password}'`);
  });

  it('says how long e-mails take and why', () => {
    expect(readme).toMatch(/within a\s+second or two/);
    expect(readme).toMatch(/background job/);
  });
});
