import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApplication } from '#app/bootstrap.js';
import { buildOpenApiDocument, stableJson } from '#app/common/openapi/swagger.js';
import { loadConfig } from '#app/config/load-config.js';

/**
 * `npm run openapi`: boots the application on a scratch in-memory database (never the developer's
 * data), writes the document it serves to openapi.json with sorted keys, and exits. A test fails when
 * the committed file differs from what the app generates.
 */
async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, DATABASE_URL: undefined, LOG_LEVEL: 'silent', JOBS: 'off' });
  const { startEmbeddedPostgres } = await import('#app/infra/database/embedded-postgres.js');
  const scratch = await startEmbeddedPostgres(null);
  const running = await createApplication({ ...config, databaseUrl: scratch.url });
  try {
    const file = join(process.cwd(), 'openapi.json');
    writeFileSync(file, stableJson(buildOpenApiDocument(running.app)));
    process.stdout.write(`wrote ${file}\n`);
  } finally {
    await running.close();
    await scratch.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
