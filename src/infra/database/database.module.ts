import { type DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { dataSourceOptions } from './data-source-options.js';
import { DATABASE_URL } from './database.tokens.js';
import { TransactionRunner } from './transaction-runner.js';

@Global()
@Module({})
export class DatabaseModule {
  static forRoot(url: string): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [TypeOrmModule.forRoot({ ...dataSourceOptions(url), retryAttempts: 3, retryDelay: 1000 })],
      providers: [{ provide: DATABASE_URL, useValue: url }, TransactionRunner],
      exports: [DATABASE_URL, TransactionRunner],
    };
  }
}
