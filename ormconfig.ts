import { DataSource } from 'typeorm';
import { dataSourceOptions } from './src/infra/database/data-source-options.js';

// The TypeORM CLI wants exactly one export, a DataSource. `npm run migration:*` (src/bin/db-cli.ts)
// sets DATABASE_URL, starting the embedded database first when none is configured.
export default new DataSource({
  ...dataSourceOptions(process.env.DATABASE_URL ?? 'postgres://localhost/postgres'),
  migrationsRun: false,
});
