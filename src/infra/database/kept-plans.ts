import { createHash } from 'node:crypto';
import { parameterLiterals } from './sql-literals.js';

/** The statements worth a plan kept on each connection (`keepPlan`), each with the hash that names it. */
const KEPT = new Map<string, string>();

/**
 * Marks a statement as one PostgreSQL should plan once per connection rather than on every run: the few
 * statements every sale sends (its reads, its claim, its counter, its activity row, its points, its queued
 * job, its referral check). Sent through
 * `TransactionRunner`'s one-message transactions, their parameters are literals, so PostgreSQL parses
 * and plans them each time — the counter's statement cost the database ~0.7 ms of CPU a sale that way and
 * ~0.25 ms as a prepared statement (pgbench, docs/DECISIONS.md). A read outside any transaction goes through
 * `TransactionRunner.query`, which runs a kept statement as a named one. Answers `sql`, to wrap the constant
 * that holds it; marking the same text again costs a lookup.
 */
export function keepPlan(sql: string): string {
  if (!KEPT.has(sql)) KEPT.set(sql, createHash('sha1').update(sql).digest('hex').slice(0, 16));
  return sql;
}

/**
 * The name a kept statement runs under as the pg driver's own named statement (a read outside any
 * transaction, on whichever pool connection it gets): the driver parses it once per connection and
 * remembers that it did, so nothing here needs to.
 */
export function driverPlanName(sql: string): string | undefined {
  const hash = KEPT.get(sql);
  return hash === undefined ? undefined : `plan_${hash}`;
}

/**
 * The prepared statements of one database session. A kept statement is prepared in the message of its
 * first use on the session (`PREPARE` right before its `EXECUTE`) and executed by name after that.
 * `PREPARE` is not undone by a rollback, yet it may not have run when its message failed: then the name
 * is never used again on this session and the next use prepares under a new one, so a `PREPARE` never
 * meets a name that exists.
 */
export class SessionPlans {
  /** Statement → name, prepared: a message that carried its PREPARE has succeeded. */
  private readonly prepared = new Map<string, string>();
  /** Statement → name, whose PREPARE has been written into a message not yet answered. */
  private readonly pending = new Map<string, string>();
  private generation = 0;

  /** The statements that run `sql` with `values`: `[PREPARE …, EXECUTE …]`, `[EXECUTE …]`, or null to inline it. */
  statements(sql: string, values: readonly unknown[]): string[] | null {
    const hash = KEPT.get(sql);
    if (hash === undefined) return null;
    const literals = parameterLiterals(sql, values);
    if (!literals) return null;
    const args = literals.length ? `(${literals.join(', ')})` : '';
    const known = this.prepared.get(sql) ?? this.pending.get(sql);
    if (known) return [`EXECUTE ${known}${args}`];
    const name = `kept_${hash}_${this.generation}`;
    this.pending.set(sql, name);
    return [`PREPARE ${name} AS ${sql}`, `EXECUTE ${name}${args}`];
  }

  /** A message that carried these statements succeeded: the PREPAREs among them have run. */
  sent(statements: readonly string[]): void {
    const names = new Set(preparedIn(statements));
    if (!names.size) return;
    for (const [sql, name] of this.pending)
      if (names.has(name)) {
        this.prepared.set(sql, name);
        this.pending.delete(sql);
      }
  }

  /**
   * A message carrying these statements failed, or they were dropped unsent: whether their PREPAREs ran
   * is unknown, so their names are not used again.
   */
  lost(statements: readonly string[]): void {
    const names = new Set(preparedIn(statements));
    if (!names.size) return;
    for (const [sql, name] of this.pending) if (names.has(name)) this.pending.delete(sql);
    this.generation++;
  }
}

function preparedIn(statements: readonly string[]): string[] {
  return statements.filter((s) => s.startsWith('PREPARE ')).map((s) => s.slice(8, s.indexOf(' ', 8)));
}
