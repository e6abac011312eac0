import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';

/**
 * Services open transactions through this, and pass its manager to every repository call and job
 * enqueue inside it. On the embedded database a query outside the open transaction's own connection
 * would wait for it forever (STACK.md), so nothing inside may use another connection.
 */
@Injectable()
export class TransactionRunner {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }
}
