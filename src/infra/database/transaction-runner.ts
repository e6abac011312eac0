import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ClientBase, QueryResult } from 'pg';
import {
  type DataSource,
  type EntityManager,
  type EntityTarget,
  type ObjectLiteral,
  QueryFailedError,
  type QueryRunner,
  type Repository,
} from 'typeorm';
import { inlineParameters } from './sql-literals.js';

interface OpenTransaction {
  runner: QueryRunner;
  /** Run once the transaction has committed; dropped if it rolls back. */
  afterCommit: Array<() => void>;
  /** Committed by `commitWith`: nothing more may run in it. */
  committed: boolean;
}

/** TypeORM's transaction state on a query runner, reset when `commitWith` ended the transaction itself. */
type RunnerState = { isTransactionActive: boolean; transactionDepth: number; databaseConnection: ClientBase };

/**
 * The one way the service uses transactions (docs/DECISIONS.md, "Transactions"). `run(work)` opens a
 * transaction and makes it the ambient one for everything `work` awaits: repositories read `manager`
 * (the open transaction's, else the pool's), so services call each other's methods without handing
 * an EntityManager along, and nothing inside can reach another connection by mistake — on the embedded
 * database such a query would wait for the transaction forever (STACK.md). A `run` inside a `run` joins
 * the open transaction.
 */
@Injectable()
export class TransactionRunner {
  private readonly current = new AsyncLocalStorage<OpenTransaction>();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The open transaction's manager, or the pool's outside any transaction. */
  get manager(): EntityManager {
    const open = this.current.getStore();
    if (!open) return this.dataSource.manager;
    if (open.committed) throw new Error('The transaction has committed: nothing more may run in it.');
    return open.runner.manager;
  }

  /** Whether the caller runs inside a transaction. */
  get active(): boolean {
    return this.current.getStore() !== undefined;
  }

  repo<T extends ObjectLiteral>(entity: EntityTarget<T>): Repository<T> {
    return this.manager.getRepository(entity);
  }

  /**
   * Runs `work` in a transaction: the open one if there is one, else a new one committed when it
   * resolves (unless `commitWith` already did). `work` also receives the manager (for code not yet
   * reading `manager` from here).
   */
  async run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const joined = this.current.getStore();
    if (joined) return work(this.manager);
    const runner = this.dataSource.createQueryRunner();
    const open: OpenTransaction = { runner, afterCommit: [], committed: false };
    try {
      await runner.connect();
      await runner.startTransaction();
      let result: T;
      try {
        result = await this.current.run(open, () => work(runner.manager));
        if (!open.committed) await runner.commitTransaction();
      } catch (error) {
        if (!open.committed && runner.isTransactionActive)
          await runner.rollbackTransaction().catch(() => undefined);
        throw error;
      }
      for (const hook of open.afterCommit) hook();
      return result;
    } finally {
      await runner.release();
    }
  }

  /**
   * Runs `sql` as the open transaction's LAST statement and commits it in the same round trip, so that
   * the row locks it takes are held for that statement and the commit alone — not while the reply
   * travels back to this process and waits its turn in the event loop before a COMMIT is sent (the
   * raffle counter every buyer of a popular raffle queues on, DESIGN §6). The statement must raise an
   * error to refuse (the transaction is then rolled back); parameters are written as literals
   * (`inlineParameters`), since one message carrying two statements takes none.
   */
  async commitWith<R extends object>(sql: string, values: readonly unknown[]): Promise<R[]> {
    const open = this.current.getStore();
    if (!open || open.committed) throw new Error('commitWith needs an open transaction');
    const state = open.runner as unknown as RunnerState;
    const client = state.databaseConnection;
    const text = `${inlineParameters(sql, values, (s) => client.escapeLiteral(s))};\nCOMMIT`;
    let results: QueryResult<R>[];
    try {
      results = (await client.query(text)) as unknown as QueryResult<R>[];
    } catch (error) {
      // The same error as any other statement's, so callers tell failures apart one way.
      throw new QueryFailedError(sql, [...values], error as Error);
    }
    open.committed = true;
    state.isTransactionActive = false;
    state.transactionDepth = 0;
    return results[0].rows;
  }

  /** Runs `work` with no ambient transaction, on the pool (autocommitted statements). */
  outside<T>(work: () => Promise<T>): Promise<T> {
    return this.current.exit(work);
  }

  /**
   * Runs `hook` once the ambient transaction commits (never if it rolls back); at once outside one.
   * For in-process effects of a commit (waking a job worker), never for work that must not be lost.
   */
  afterCommit(hook: () => void): void {
    const open = this.current.getStore();
    if (open && !open.committed) open.afterCommit.push(hook);
    else hook();
  }
}
