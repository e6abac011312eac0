import 'reflect-metadata';
import { createApplication } from '#app/bootstrap.js';
import { loadConfig } from '#app/config/load-config.js';
import { AdminBootstrapService } from '#app/modules/auth/admin-bootstrap.service.js';

/**
 * `npm run admin:create -- <email> <site_id>` with the password in ADMIN_PASSWORD (never on the
 * command line, where it would land in shell history). Creates the site when missing.
 */
async function main(): Promise<void> {
  const [email, siteId = process.env.ADMIN_SITE_ID ?? 'default'] = process.argv.slice(2);
  const password = process.env.ADMIN_PASSWORD;
  if (!email || !password) {
    throw new Error('usage: ADMIN_PASSWORD=… npm run admin:create -- <email> [site_id]');
  }
  const config = loadConfig({
    ...process.env,
    ADMIN_EMAIL: undefined,
    ADMIN_PASSWORD: undefined,
    JOBS: 'off',
    LOG_LEVEL: 'warn',
  });
  const running = await createApplication(config);
  try {
    const created = await running.app
      .get(AdminBootstrapService)
      .createSuperadmin({ email, password, siteId });
    process.stdout.write(
      created ? `superadmin ${email} created on site ${siteId}\n` : `${email} already exists on ${siteId}\n`,
    );
  } finally {
    await running.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
