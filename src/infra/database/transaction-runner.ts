import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ClientBase, Pool, QueryResult } from 'pg';
import {
  type DataSource,
  type EntityManager,
  type EntityTarget,
  type ObjectLiteral,
  QueryFailedError,
  type QueryRunner,
  type Repository,
} from 'typeorm';
import { type HeldBatch, HeldStatements } from './held-statements.js';
import { driverPlanName, SessionPlans } from './kept-plans.js';
import { inlineParameters } from './sql-literals.js';

interface OpenTransaction {
  runner: QueryRunner;
  client: ClientBase;
  /** Statements waiting to travel with the transaction's next message (deferred writes, a held opening). */
  held: HeldStatements;
  /** Run once the transaction has committed; dropped if it rolls back. */
  afterCommit: Array<() => void>;
  /** Committed by `commitWith`: nothing more may run in it. */
  committed: boolean;
  /** The session's prepared statements (PostgreSQL only). */
  plans?: SessionPlans;
}

/** TypeORM's transaction state on a query runner, set when this class opens or ends a transaction itself. */
type RunnerState = { isTransactionActive: boolean; transactionDepth: number; databaseConnection: ClientBase };

/**
 * The one way the service uses transactions (docs/DECISIONS.md, "Transactions"). `run(work)` opens a
 * transaction and makes it the ambient one for everything `work` awaits: repositories read `manager`
 * (the open transaction's, else the pool's), so services call each other's methods without handing
 * an EntityManager along, and nothing inside can reach another connection by mistake — on the embedded
 * database such a query would wait for the transaction forever (STACK.md). A `run` inside a `run` joins
 * the open transaction.
 *
 * Round trips are what a sale pays for on its hot path, so a transaction can also send several statements
 * in one message (PostgreSQL's simple query protocol; their parameters written as literals by
 * `inlineParameters`): `runOpening` opens it with its first statement, `defer` holds writes whose results
 * nobody reads until the next statement goes (any query through `manager` sends them first, so order is
 * kept), and `commitWith` sends what is held, the last statement and COMMIT together. `runHeldOpening`
 * holds the opening too, so a transaction of deferred writes is one message from START to COMMIT.
 */
@Injectable()
export class TransactionRunner implements OnModuleInit {
  private readonly current = new AsyncLocalStorage<OpenTransaction>();
  private readonly sessions = new WeakMap<ClientBase, SessionPlans>();
  /**
   * Whether connections keep the plans of `keepPlan` statements: on PostgreSQL, not on the embedded
   * database, whose one session every connection shares (STACK.md) — there a name prepared by one
   * connection would exist for all. Told by the server itself, as the embedded one may also be reached
   * through a DATABASE_URL (the e2e run).
   */
  private keepPlans = false;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async onModuleInit(): Promise<void> {
    // Unanswered (the database went away right after the pool connected): plans are simply not kept.
    const rows = await this.dataSource
      .query<Array<{ version: string }>>('SELECT version()')
      .catch((): Array<{ version: string }> => []);
    this.keepPlans = rows.length > 0 && !/PGlite|emscripten/i.test(rows[0].version);
  }

  /** The open transaction's manager, or the pool's outside any transaction. */
  get manager(): EntityManager {
    const open = this.current.getStore();
    if (!open) return this.dataSource.manager;
    if (open.committed) throw new Error('The transaction has committed: nothing more may run in it.');
    return open.runner.manager;
  }

  /**
   * Runs one statement in the ambient transaction, else on the pool. Outside a transaction a `keepPlan`
   * statement runs as the pg driver's named statement on PostgreSQL: parsed and planned once per pool
   * connection, not on every sale (a sale's reads of its payment and its raffle). Errors are TypeORM's
   * `QueryFailedError`, as for any other statement.
   */
  async query<R extends object>(sql: string, values: readonly unknown[]): Promise<R[]> {
    const name = this.keepPlans && !this.active ? driverPlanName(sql) : undefined;
    if (!name) return this.manager.query<R[]>(sql, values as unknown[]);
    const pool = (this.dataSource.driver as unknown as { master: Pool }).master;
    try {
      const result = await pool.query<R>({ name, text: sql, values: values as unknown[] });
      return result.rows;
    } catch (error) {
      throw new QueryFailedError(sql, values as unknown[], error as Error);
    }
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
    return this.open(async (open) => {
      await open.runner.startTransaction();
      return () => work(open.runner.manager);
    });
  }

  /**
   * Opens a new transaction with its first statement in the same round trip and runs `work` with that
   * statement's rows, the transaction ambient (a sale's transaction starts with the claim that decides
   * whether it goes on).
   */
  async runOpening<T>(
    first: { sql: string; values: readonly unknown[] },
    work: (rows: unknown[]) => Promise<T>,
  ): Promise<T> {
    if (this.current.getStore()) throw new Error('runOpening opens a transaction: it cannot join one');
    return this.open(async (open) => {
      this.began(open);
      open.held.hold(['START TRANSACTION']);
      const rows = await this.send<object>(open, open.held.take(), first, []);
      return () => work(rows);
    });
  }

  /**
   * Opens a new transaction whose opening (START TRANSACTION and its first statement) is held like a
   * deferred write and travels with the transaction's next message: a sale whose other statements are all
   * deferred goes to the database as ONE message, from START to COMMIT. So the first statement must raise
   * to refuse (a claim someone else won), or what follows it in that message would run. `work` gets its
   * rows as a promise settled when the message carrying it is answered — which may be the COMMIT: await it
   * only once the transaction is over.
   */
  async runHeldOpening<T>(
    first: { sql: string; values: readonly unknown[] },
    work: (rows: Promise<unknown[]>) => Promise<T>,
  ): Promise<T> {
    if (this.current.getStore()) throw new Error('runHeldOpening opens a transaction: it cannot join one');
    return this.open((open) => {
      this.began(open);
      open.held.hold(['START TRANSACTION']);
      const rows = open.held.holdAnswering(this.written(open, first.sql, first.values));
      rows.catch(() => undefined); // a failure is the message's: thrown to whoever sent it
      return Promise.resolve(() => work(rows));
    });
  }

  /**
   * Holds a write in the open transaction until its next statement: sent in the same message as that
   * statement (or as the COMMIT), not on a round trip of its own. For writes whose result nobody reads
   * (an activity row, a queued job, a ledger credit); an error in one fails the transaction when it goes.
   */
  defer(sql: string, values: readonly unknown[]): void {
    const open = this.current.getStore();
    if (!open || open.committed) throw new Error('defer needs an open transaction');
    open.held.hold(this.written(open, sql, values));
  }

  /**
   * Runs `sql` as the open transaction's LAST statement, after what is deferred, and commits, all in one
   * round trip: the row locks it takes are held for that statement and the commit alone — never while the
   * reply travels back to this process and waits its turn in the event loop (the raffle counter every
   * buyer of a popular raffle queues on, DESIGN §6). To refuse, the statement must raise an error (the
   * transaction is then rolled back).
   */
  async commitWith<R extends object>(sql: string, values: readonly unknown[]): Promise<R[]> {
    const open = this.current.getStore();
    if (!open || open.committed) throw new Error('commitWith needs an open transaction');
    const rows = await this.send<R>(open, open.held.take(), { sql, values }, ['COMMIT']);
    this.ended(open);
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

  /**
   * Runs `work` while this process holds the session advisory lock `key` on a pool connection of its
   * own, so that instances sharing the database do it one at a time (start-up chores). `work` may use
   * any connection. PGlite is one session, where the lock excludes nothing: there each statement runs
   * alone anyway, and one database serves one process (DESIGN §2).
   */
  async exclusively<T>(key: string, work: () => Promise<T>): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    try {
      await runner.query(`SELECT pg_advisory_lock(hashtextextended($1, 0))`, [key]);
      try {
        return await work();
      } finally {
        await runner.query(`SELECT pg_advisory_unlock(hashtextextended($1, 0))`, [key]);
      }
    } finally {
      await runner.release();
    }
  }

  /** A transaction on a connection of its own: `begin` opens it and answers the work to run in it. */
  private async open<T>(begin: (open: OpenTransaction) => Promise<() => Promise<T>>): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    try {
      const client = (await runner.connect()) as ClientBase;
      const open: OpenTransaction = {
        runner,
        client,
        held: new HeldStatements(),
        afterCommit: [],
        committed: false,
        plans: this.plansOf(client),
      };
      this.flushBeforeEachQuery(open);
      let result: T;
      try {
        const work = await begin(open);
        result = await this.current.run(open, work);
        if (!open.committed) await this.commit(open);
      } catch (error) {
        const unsent = open.held.take();
        open.plans?.lost(unsent.texts);
        unsent.failed(error);
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

  /** COMMIT, with whatever is still held in the same message. */
  private async commit(open: OpenTransaction): Promise<void> {
    if (!open.held.size) return open.runner.commitTransaction();
    await this.send(open, open.held.take(), null, ['COMMIT']);
    this.ended(open);
  }

  /**
   * Every query of the transaction through TypeORM (a repository, the manager, a queued job) first sends
   * what is deferred, so statements reach the database in the order they were written.
   */
  private flushBeforeEachQuery(open: OpenTransaction): void {
    const runner = open.runner;
    const query = runner.query.bind(runner) as (...args: unknown[]) => Promise<unknown>;
    runner.query = (async (...args: unknown[]) => {
      if (open.held.size) await this.send(open, open.held.take(), null, []);
      return query(...args);
    }) as QueryRunner['query'];
  }

  /** TypeORM is told the transaction is open (this class sends, or holds, its START). */
  private began(open: OpenTransaction): void {
    const state = open.runner as unknown as RunnerState;
    state.isTransactionActive = true;
    state.transactionDepth = 1;
  }

  /** TypeORM is told the transaction is over (this class sent its COMMIT). */
  private ended(open: OpenTransaction): void {
    open.committed = true;
    const state = open.runner as unknown as RunnerState;
    state.isTransactionActive = false;
    state.transactionDepth = 0;
  }

  private plansOf(client: ClientBase): SessionPlans | undefined {
    if (!this.keepPlans) return undefined;
    let plans = this.sessions.get(client);
    if (!plans) this.sessions.set(client, (plans = new SessionPlans()));
    return plans;
  }

  /** A statement as the message carries it: by its kept plan (`keepPlan`), else with literals for parameters. */
  private written(open: OpenTransaction, sql: string, values: readonly unknown[]): string[] {
    if (!values.length) return [sql];
    const escape = (s: string) => open.client.escapeLiteral(s);
    return open.plans?.statements(sql, values, escape) ?? [inlineParameters(sql, values, escape)];
  }

  /**
   * One simple-protocol message: what was `held` (statements already written out), the statement if any
   * (its parameters written as literals, or by its kept plan), then `after`; answers that statement's rows
   * (none without one) and the held statements' waiting callers theirs. Errors are TypeORM's
   * `QueryFailedError`, as for any other statement.
   */
  private async send<R extends object>(
    open: OpenTransaction,
    held: HeldBatch,
    statement: { sql: string; values: readonly unknown[] } | null,
    after: string[],
  ): Promise<R[]> {
    const statements = [...held.texts];
    if (statement) statements.push(...this.written(open, statement.sql, statement.values));
    const answering = statements.length - 1;
    statements.push(...after);
    const text = statements.join(';\n');
    let answer: unknown;
    try {
      answer = await open.client.query(text);
    } catch (error) {
      open.plans?.lost(statements);
      const failure = new QueryFailedError(text, [], error as Error);
      held.failed(failure);
      throw failure;
    }
    open.plans?.sent(statements);
    const results = Array.isArray(answer) ? (answer as QueryResult<R>[]) : [answer as QueryResult<R>];
    held.answered(results);
    return statement ? results[answering].rows : [];
  }
}
