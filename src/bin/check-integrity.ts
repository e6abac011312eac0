import { Client } from 'pg';
import { loadConfig } from '#app/config/load-config.js';
import { startEmbeddedPostgres } from '#app/infra/database/embedded-postgres.js';
import { integrityReport, runIntegrityChecks } from '#app/infra/database/integrity/check-integrity.js';

/**
 * `npm run check:integrity [-- <site_id>]`: the money-integrity checks against `DATABASE_URL` (or the
 * embedded database under DATA_DIR, which must not be open in a running app), of every site or one.
 * Exit 0 only when every promise holds.
 */
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const embedded = config.databaseUrl ? undefined : await startEmbeddedPostgres(config.dataDir);
  const client = new Client({ connectionString: config.databaseUrl ?? embedded?.url });
  await client.connect();
  try {
    const outcomes = await runIntegrityChecks(
      async <R>(sql: string) => (await client.query(sql)).rows as R[],
    );
    process.stdout.write(`${integrityReport(outcomes)}\n`);
    const failed = outcomes.filter((o) => o.violations > 0).length;
    process.stdout.write(failed ? `\n${failed} check(s) failed\n` : '\nall checks hold\n');
    process.exitCode = failed ? 1 : 0;
  } finally {
    await client.end();
    await embedded?.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
});
