import 'reflect-metadata';
import { createApplication } from './bootstrap.js';
import { ConfigError, loadConfig } from './config/load-config.js';

async function main(): Promise<void> {
  const started = process.hrtime.bigint();
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  const running = await createApplication(config);
  await running.app.listen(config.port);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  process.stdout.write(
    `${JSON.stringify({ msg: 'listening', url: `${config.publicBaseUrl}/docs`, database: config.databaseUrl ? 'postgres' : 'embedded', startup_ms: Math.round(ms) })}\n`,
  );

  // Graceful shutdown: stop taking requests, finish in-flight ones and jobs, close the pool, then
  // the embedded database.
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`${JSON.stringify({ msg: 'shutting down', signal })}\n`);
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`shutdown failed: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(
    `start-up failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
