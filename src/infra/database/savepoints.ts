import type { EntityManager } from 'typeorm';

/**
 * Savepoints inside a transaction opened by TransactionRunner: a step that may be refused (a raffle with
 * no tickets left) is undone alone, and the transaction goes on to record what happened instead.
 */
export async function savepoint(manager: EntityManager, name: string): Promise<void> {
  await manager.query(`SAVEPOINT ${name}`);
}

export async function rollbackToSavepoint(manager: EntityManager, name: string): Promise<void> {
  await manager.query(`ROLLBACK TO SAVEPOINT ${name}`);
}

export async function releaseSavepoint(manager: EntityManager, name: string): Promise<void> {
  await manager.query(`RELEASE SAVEPOINT ${name}`);
}
