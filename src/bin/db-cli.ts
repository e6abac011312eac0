import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { loadConfig } from '#app/config/load-config.js';
import { startEmbeddedPostgres } from '#app/infra/database/embedded-postgres.js';

/**
 * `npm run migration:generate|run|revert|check` through the TypeORM CLI and ormconfig.ts.
 * Without DATABASE_URL: `run`/`revert` act on the embedded database under DATA_DIR; `generate`/`check`
 * compare the entities with a scratch in-memory database migrated from scratch (so a running app's
 * data directory is never opened twice).
 */
const MIGRATIONS_DIR = 'src/infra/database/migrations';

async function main(): Promise<void> {
  const [command, name = 'Migration'] = process.argv.slice(2);
  const commands = ['migration:generate', 'migration:run', 'migration:revert', 'migration:check'];
  if (!commands.includes(command)) throw new Error(`usage: db-cli ${commands.join('|')} [name]`);
  const config = loadConfig(process.env);
  const scratch = command === 'migration:generate' || command === 'migration:check';
  const embedded = config.databaseUrl
    ? undefined
    : await startEmbeddedPostgres(scratch ? null : config.dataDir);
  const env = { ...process.env, DATABASE_URL: config.databaseUrl ?? embedded?.url };
  const cli = createRequire(__filename).resolve('typeorm/cli.js');
  const ormconfig = join(__dirname, '..', '..', 'ormconfig.js');
  // Asynchronous on purpose: the embedded database is served by this very process.
  const typeorm = (...args: string[]): Promise<number> =>
    new Promise((resolve) => {
      const child = spawn(process.execPath, [cli, ...args, '-d', ormconfig], { stdio: 'inherit', env });
      child.on('exit', (code) => resolve(code ?? 1));
    });
  let status: number;
  try {
    if (command === 'migration:run' || command === 'migration:revert') {
      status = await typeorm(command);
    } else {
      status = await typeorm('migration:run');
      if (status === 0 && command === 'migration:generate') {
        status = await typeorm('migration:generate', join(MIGRATIONS_DIR, name), '--pretty');
        if (status === 0) process.stdout.write(`Now list the new class in ${MIGRATIONS_DIR}/index.ts.\n`);
      }
      if (status === 0 && command === 'migration:check') {
        // Fails (exit 1) when the entities need a migration that has not been written.
        status = await typeorm('migration:generate', join(MIGRATIONS_DIR, 'Pending'), '--check', '--dryrun');
      }
    }
  } finally {
    await embedded?.stop();
  }
  process.exit(status);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
