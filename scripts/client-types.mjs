#!/usr/bin/env node
// Generates the TypeScript types of the API from the committed openapi.json (openapi-typescript), formatted
// with the project's prettier settings, into test/generated/api-types.ts: the types a client typed by
// `openapi-fetch` compiles against (test/e2e/typed-client.e2e-spec.ts).
//
//   node scripts/client-types.mjs           writes the file (`npm run client:types`, also `npm run openapi`)
//   node scripts/client-types.mjs --check   exits 1 when the committed file differs from what it would write
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import * as prettier from 'prettier';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'openapi.json');
const target = join(root, 'test', 'generated', 'api-types.ts');

async function generate() {
  const document = JSON.parse(await readFile(source, 'utf8'));
  const text = COMMENT_HEADER + astToString(await openapiTS(document));
  const options = (await prettier.resolveConfig(target)) ?? {};
  return prettier.format(text, { ...options, filepath: target });
}

const wanted = await generate();
if (process.argv.includes('--check')) {
  const committed = await readFile(target, 'utf8').catch(() => '');
  if (committed !== wanted) {
    process.stderr.write(`${relative(root, target)} is stale: run \`npm run client:types\`\n`);
    process.exit(1);
  }
  process.stdout.write(`${relative(root, target)} is current\n`);
} else {
  await writeFile(target, wanted);
  process.stdout.write(`wrote ${relative(root, target)}\n`);
}
