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
    if (this.current.getStore()) return work(this.manager);
    return this.open(async (runner) => {
      await runner.startTransaction();
      return () => work(runner.manager);
    });
  }

  /**
   * Opens a new transaction with its first statement in the same round trip (START TRANSACTION and
   * `sql` in one message, parameters written as literals like `commitWith`'s) and runs `work` with that
   * statement's rows, the transaction ambient: one round trip fewer for a sale's transaction, whose
   * first statement is the claim that decides whether it goes on.
   */
  async runOpening<T>(
    first: { sql: string; values: readonly unknown[] },
    work: (rows: unknown[]) => Promise<T>,
  ): Promise<T> {
    if (this.current.getStore()) throw new Error('runOpening opens a transaction: it cannot join one');
    return this.open(async (runner) => {
      const state = runner as unknown as RunnerState;
      state.isTransactionActive = true;
      state.transactionDepth = 1;
      const rows = await this.simple<object>(state, 'START TRANSACTION;\n', first.sql, first.values, '');
      return () => work(rows);
    });
  }

  /** A transaction on a connection of its own: `begin` opens it and answers the work to run in it. */
  private async open<T>(begin: (runner: QueryRunner) => Promise<() => Promise<T>>): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    const open: OpenTransaction = { runner, afterCommit: [], committed: false };
    try {
      await runner.connect();
      let result: T;
      try {
        const work = await begin(runner);
        result = await this.current.run(open, work);
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
   * One simple-protocol message: `before`, the statement with its parameters written as literals, and
   * `after`; answers the statement's rows. Errors are TypeORM's, as for any other statement.
   */
  private async simple<R extends object>(
    state: RunnerState,
    before: string,
    sql: string,
    values: readonly unknown[],
    after: string,
  ): Promise<R[]> {
    const client = state.databaseConnection;
    const text = `${before}${inlineParameters(sql, values, (s) => client.escapeLiteral(s))}${after}`;
    try {
      const results = (await client.query(text)) as unknown as QueryResult<R>[];
      return results[before ? 1 : 0].rows;
    } catch (error) {
      throw new QueryFailedError(sql, [...values], error as Error);
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
    const rows = await this.simple<R>(state, '', sql, values, ';\nCOMMIT');
    open.committed = true;
    state.isTransactionActive = false;
    state.transactionDepth = 0;
    return rows;
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
