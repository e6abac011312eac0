import type { ClientBase, QueryResult } from 'pg';
import { type EntityManager, QueryFailedError, type QueryRunner } from 'typeorm';
import { HeldStatements } from './held-statements.js';
import type { SessionPlans } from './kept-plans.js';
import { inlineParameters } from './sql-literals.js';

/** TypeORM's transaction state on a query runner, set when this class opens or ends a transaction itself. */
type RunnerState = { isTransactionActive: boolean; transactionDepth: number };

/** A statement and its parameters. */
export interface Statement {
  sql: string;
  values: readonly unknown[];
}

/**
 * One transaction `TransactionRunner` has open on a connection of its own, and how its statements travel:
 * several in one simple-protocol message, their parameters written as literals (`inlineParameters`) or
 * by the session's kept plans (`SessionPlans`, PostgreSQL only); what it holds for its next message
 * (`HeldStatements`); the hooks its commit runs. Every query TypeORM sends on it first sends what is
 * held, so statements reach the database in the order they were written.
 */
export class OpenTransaction {
  private readonly held = new HeldStatements();
  /** Run once the transaction has committed; dropped if it rolls back. */
  readonly afterCommit: Array<() => void> = [];
  /** Committed by this class (`commitWith`, `commit`): nothing more may run in it. */
  committed = false;
  /** Its START is held, not yet sent: the server has no transaction to roll back. */
  private startUnsent = false;

  constructor(
    readonly runner: QueryRunner,
    private readonly client: ClientBase,
    private readonly plans: SessionPlans | undefined,
  ) {
    const query = runner.query.bind(runner) as (...args: unknown[]) => Promise<unknown>;
    runner.query = (async (...args: unknown[]) => {
      if (this.held.size) await this.send(null, []);
      return query(...args);
    }) as QueryRunner['query'];
  }

  get manager(): EntityManager {
    if (this.committed) throw new Error('The transaction has committed: nothing more may run in it.');
    return this.runner.manager;
  }

  /** START TRANSACTION held for the next message; TypeORM is told the transaction is open. */
  holdStart(): void {
    this.setRunnerState(true);
    this.held.hold(['START TRANSACTION']);
    this.startUnsent = true;
  }

  /** Holds a statement for the next message. */
  hold(statement: Statement): void {
    this.held.hold(this.written(statement));
  }

  /** Holds a statement for the next message; its rows are answered once that message is. */
  holdAnswering(statement: Statement): Promise<unknown[]> {
    return this.held.holdAnswering(this.written(statement));
  }

  /** What is held, `statement` and COMMIT in one message; answers the statement's rows. */
  async commitWith<R extends object>(statement: Statement): Promise<R[]> {
    const rows = await this.send<R>(statement, ['COMMIT']);
    this.ended();
    return rows;
  }

  /** COMMIT, with whatever is still held in the same message. */
  async commit(): Promise<void> {
    if (this.held.size) await this.send(null, ['COMMIT']);
    else await this.runner.commitTransaction();
    this.ended();
  }

  /**
   * What is held is dropped (its callers told `error`), and the transaction rolled back if the server has
   * one open (not when its START never left this process).
   */
  async rollback(error: unknown): Promise<void> {
    const unsent = this.held.take();
    this.plans?.lost(unsent.texts);
    unsent.failed(error);
    if (this.startUnsent) this.setRunnerState(false);
    else if (!this.committed && this.runner.isTransactionActive)
      await this.runner.rollbackTransaction().catch(() => undefined);
  }

  /**
   * One simple-protocol message: what is held, `statement` if any, then `after`; answers that statement's
   * rows (none without one) and the held statements' waiting callers theirs. Errors are TypeORM's
   * `QueryFailedError`, as for any other statement.
   */
  async send<R extends object>(statement: Statement | null, after: string[]): Promise<R[]> {
    const held = this.held.take();
    const statements = [...held.texts];
    if (statement) statements.push(...this.written(statement));
    const answering = statements.length - 1;
    statements.push(...after);
    const text = statements.join(';\n');
    let answer: unknown;
    this.startUnsent = false;
    try {
      answer = await this.client.query(text);
    } catch (error) {
      this.plans?.lost(statements);
      const failure = new QueryFailedError(text, [], error as Error);
      held.failed(failure);
      throw failure;
    }
    this.plans?.sent(statements);
    const results = Array.isArray(answer) ? (answer as QueryResult<R>[]) : [answer as QueryResult<R>];
    held.answered(results);
    return statement ? results[answering].rows : [];
  }

  /** The transaction committed: nothing more may run in it. */
  private ended(): void {
    this.committed = true;
    this.setRunnerState(false);
  }

  /** TypeORM is told whether the transaction is open, where this class sends its START or COMMIT itself. */
  private setRunnerState(open: boolean): void {
    const state = this.runner as unknown as RunnerState;
    state.isTransactionActive = open;
    state.transactionDepth = open ? 1 : 0;
  }

  /** A statement as the message carries it: by its kept plan (`keepPlan`), else with literals for parameters. */
  private written({ sql, values }: Statement): string[] {
    if (!values.length) return [sql];
    return this.plans?.statements(sql, values) ?? [inlineParameters(sql, values)];
  }
}
