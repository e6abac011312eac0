import { Client } from 'pg';
import { type AppConfig } from '#app/config/app-config.js';
import { loadConfig } from '#app/config/load-config.js';
import { startEmbeddedPostgres } from '#app/infra/database/embedded-postgres.js';
import { SecretBox } from '#app/infra/crypto/secret-box.service.js';
import { SECRET_FIELDS } from '#app/modules/sites/sites.rules.js';

/**
 * `npm run secrets:rotate`: the second step of a SECRETS_KEY rotation (README "Operations"). With the new
 * key in SECRETS_KEY and the old one in SECRETS_KEY_PREVIOUS (which the running instances already read
 * under), re-encrypts every stored secret — each site's API keys and SMTP password, and the start-up
 * check value — under the new key, in one transaction. Run it again: it changes nothing. Afterwards
 * SECRETS_KEY_PREVIOUS can be removed.
 */
async function main(): Promise<void> {
  const config: AppConfig = loadConfig(process.env);
  const box = new SecretBox(config);
  const embedded = config.databaseUrl ? undefined : await startEmbeddedPostgres(config.dataDir);
  const client = new Client({ connectionString: config.databaseUrl ?? embedded?.url });
  await client.connect();
  let rewritten = 0;
  try {
    await client.query('BEGIN');
    const columns = SECRET_FIELDS.join(', ');
    const sites = await client.query<Record<string, string | null>>(
      `SELECT site_id, ${columns} FROM site_configs FOR UPDATE`,
    );
    for (const site of sites.rows) {
      for (const field of SECRET_FIELDS) {
        const stored = site[field];
        if (stored === null) continue;
        const next = box.reencrypt(stored);
        if (next === stored) continue;
        await client.query(`UPDATE site_configs SET ${field} = $1 WHERE site_id = $2`, [next, site.site_id]);
        rewritten++;
      }
    }
    const checks = await client.query<{ name: string; check_value: string }>(
      `SELECT name, check_value FROM secrets_key_checks FOR UPDATE`,
    );
    for (const check of checks.rows) {
      const next = box.reencrypt(check.check_value);
      if (next === check.check_value) continue;
      await client.query(`UPDATE secrets_key_checks SET check_value = $1 WHERE name = $2`, [
        next,
        check.name,
      ]);
      rewritten++;
    }
    await client.query('COMMIT');
    process.stdout.write(`${rewritten} secret(s) re-encrypted under the current SECRETS_KEY\n`);
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
    await embedded?.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
