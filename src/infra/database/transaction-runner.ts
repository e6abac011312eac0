import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager, EntityTarget, ObjectLiteral, Repository } from 'typeorm';

interface OpenTransaction {
  manager: EntityManager;
  /** Run once the transaction has committed; dropped if it rolls back. */
  afterCommit: Array<() => void>;
}

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
    return this.current.getStore()?.manager ?? this.dataSource.manager;
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
   * resolves. `work` also receives the manager (for code not yet reading `manager` from here).
   */
  async run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const joined = this.current.getStore();
    if (joined) return work(joined.manager);
    const open: OpenTransaction = { manager: this.dataSource.manager, afterCommit: [] };
    const result = await this.dataSource.transaction((manager) => {
      open.manager = manager;
      return this.current.run(open, () => work(manager));
    });
    for (const hook of open.afterCommit) hook();
    return result;
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
    if (open) open.afterCommit.push(hook);
    else hook();
  }
}
