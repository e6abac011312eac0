import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module.js';
import { AppExpressAdapter } from './common/http/express-adapter.js';
import { setupApp } from './app.setup.js';
import type { AppConfig } from './config/app-config.js';
import { type EmbeddedPostgres, startEmbeddedPostgres } from './infra/database/embedded-postgres.js';

export interface RunningApp {
  app: NestExpressApplication;
  /** Closes the application (in-flight requests, jobs, pool), then the embedded database if any. */
  close(): Promise<void>;
}

/**
 * Builds the application on the configured database, or on the embedded one kept under DATA_DIR
 * when no DATABASE_URL is set (DESIGN §2). Does not listen.
 */
export async function createApplication(config: AppConfig): Promise<RunningApp> {
  let embedded: EmbeddedPostgres | undefined;
  const url = config.databaseUrl ?? (embedded = await startEmbeddedPostgres(config.dataDir)).url;
  let app: NestExpressApplication | undefined;
  try {
    app = await NestFactory.create<NestExpressApplication>(
      AppModule.forRoot(config, url),
      new AppExpressAdapter(),
      {
        bodyParser: false,
        bufferLogs: true,
      },
    );
    setupApp(app);
    await app.init();
    const started = app;
    return {
      app: started,
      async close() {
        await started.close();
        await embedded?.stop();
      },
    };
  } catch (error) {
    // A start-up check failed (a wrong SECRETS_KEY, say): release the pool before reporting it.
    await app?.close().catch(() => undefined);
    await embedded?.stop();
    throw error;
  }
}
