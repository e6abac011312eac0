import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ClientBase, Pool } from 'pg';
import {
  type DataSource,
  type EntityManager,
  type EntityTarget,
  type ObjectLiteral,
  QueryFailedError,
  type Repository,
} from 'typeorm';
import { DB_POOL_SIZE } from './data-source-options.js';
import { driverPlanName, SessionPlans } from './kept-plans.js';
import { OpenTransaction, type Statement } from './open-transaction.js';

/**
 * The one way the service uses transactions (docs/DECISIONS.md, "Transactions"). `run(work)` opens a
 * transaction and makes it the ambient one for everything `work` awaits: repositories read `manager`
 * (the open transaction's, else the pool's), so services call each other's methods without handing
 * an EntityManager along, and nothing inside can reach another connection by mistake — on the embedded
 * database such a query would wait for the transaction forever (STACK.md). A `run` inside a `run` joins
 * the open transaction.
 *
 * Round trips are what a sale pays for on its hot path, so a transaction can also send several statements
 * in one message (PostgreSQL's simple query protocol, `OpenTransaction`): `runOpening` opens it with its
 * first statement, `defer` holds writes whose results nobody reads until the next statement goes (any
 * query through `manager` sends them first, so order is kept), and `commitWith` sends what is held, the
 * last statement and COMMIT together. `runHeldOpening` holds the opening too, so a transaction of
 * deferred writes is one message from START to COMMIT.
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
    if (this.keepPlans) await this.openPool();
  }

  /**
   * Opens every connection the pool keeps (`DB_POOL_SIZE`) before the first request. The pool keeps what it
   * has opened but opens only when asked, so a rush busier than any moment before it still waited for a new
   * server process to start and log in: in the purchase benchmark the tenth of fifty buyers arriving at
   * once waited 146 ms for the connection the warm-up had never needed. Not on the embedded database, where
   * a connection starts no process. Best effort: a connection that fails to open now is opened when needed.
   */
  private async openPool(): Promise<void> {
    // All of them held at once, so the pool cannot hand the same idle one out twice.
    const pool = this.pool;
    const opened = await Promise.allSettled(Array.from({ length: DB_POOL_SIZE }, () => pool.connect()));
    for (const client of opened) if (client.status === 'fulfilled') client.value.release();
  }

  private get pool(): Pool {
    return (this.dataSource.driver as unknown as { master: Pool }).master;
  }

  /** The open transaction's manager, or the pool's outside any transaction. */
  get manager(): EntityManager {
    return this.current.getStore()?.manager ?? this.dataSource.manager;
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
    const pool = this.pool;
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
  async runOpening<T>(first: Statement, work: (rows: unknown[]) => Promise<T>): Promise<T> {
    if (this.current.getStore()) throw new Error('runOpening opens a transaction: it cannot join one');
    return this.open(async (open) => {
      open.holdStart();
      const rows = await open.send<object>(first, []);
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
  async runHeldOpening<T>(first: Statement, work: (rows: Promise<unknown[]>) => Promise<T>): Promise<T> {
    if (this.current.getStore()) throw new Error('runHeldOpening opens a transaction: it cannot join one');
    return this.open((open) => {
      open.holdStart();
      const rows = open.holdAnswering(first);
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
    open.hold({ sql, values });
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
    return open.commitWith<R>({ sql, values });
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
   * Takes the advisory lock `key` until the ambient transaction ends (`manager`'s, when given): what two
   * transactions decide from rows that may not exist yet (a count, "has any") takes turns on it.
   */
  async lockUntilEnd(key: string, manager: EntityManager = this.manager): Promise<void> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [key]);
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
      const open = new OpenTransaction(runner, client, this.plansOf(client));
      let result: T;
      try {
        const work = await begin(open);
        result = await this.current.run(open, work);
        if (!open.committed) await open.commit();
      } catch (error) {
        await open.rollback(error);
        throw error;
      }
      for (const hook of open.afterCommit) hook();
      return result;
    } finally {
      await runner.release();
    }
  }

  private plansOf(client: ClientBase): SessionPlans | undefined {
    if (!this.keepPlans) return undefined;
    let plans = this.sessions.get(client);
    if (!plans) this.sessions.set(client, (plans = new SessionPlans()));
    return plans;
  }
}
