import 'reflect-metadata';
import { PinoLogger } from 'nestjs-pino';
import { createApplication } from './bootstrap.js';
import { ConfigError, loadConfig } from './config/load-config.js';
import { HttpDrain } from './modules/health/http-drain.js';

/** Waits until the port answers a request (at most a few seconds), so "listening" is never early. */
async function answering(port: number): Promise<void> {
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health/live`, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/** Writes out what the logger still holds, so the start-up logs come before the "listening" line. */
function flushLogs(): Promise<void> {
  return new Promise((resolve) => {
    try {
      PinoLogger.root.flush(() => resolve());
    } catch {
      resolve();
    }
  });
}

async function main(): Promise<void> {
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
  const address = running.app.getHttpServer().address();
  await answering(typeof address === 'object' && address ? address.port : config.port);
  await flushLogs();
  // Since the process started (performance.now()'s origin), loading the modules included: the time a
  // user waits between starting the process and the port answering.
  process.stdout.write(
    `${JSON.stringify({ msg: 'listening', url: `${config.publicBaseUrl}/docs`, database: config.databaseUrl ? 'postgres' : 'embedded', startup_ms: Math.round(performance.now()) })}\n`,
  );

  // Graceful shutdown: drain (readiness 503, no keep-alive, until nothing is in flight), then stop
  // taking requests, finish in-flight ones and jobs, close the pool, then the embedded database.
  const drain = running.app.get(HttpDrain);
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`${JSON.stringify({ msg: 'shutting down', signal })}\n`);
    drain
      .drain()
      .then(() => running.close())
      .then(
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
