import { type DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from './data-source-options.js';
import { DATABASE_URL } from './database.tokens.js';
import { migrateExclusively } from './migrate.js';
import { TransactionRunner } from './transaction-runner.js';

@Global()
@Module({})
export class DatabaseModule {
  static forRoot(url: string): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          // Migrations run here rather than by `migrationsRun`, under a lock (instances share the database).
          useFactory: () => ({
            ...dataSourceOptions(url),
            migrationsRun: false,
            retryAttempts: 3,
            retryDelay: 1000,
          }),
          dataSourceFactory: async (options) => {
            if (!options) throw new Error('No database options');
            const dataSource = await new DataSource(options).initialize();
            try {
              await migrateExclusively(dataSource);
            } catch (error) {
              await dataSource.destroy();
              throw error;
            }
            return dataSource;
          },
        }),
      ],
      providers: [{ provide: DATABASE_URL, useValue: url }, TransactionRunner],
      exports: [DATABASE_URL, TransactionRunner],
    };
  }
}
