import { createRequire } from 'node:module';
import { Logger } from '@nestjs/common';

type Settle = (...args: unknown[]) => Promise<unknown>;
interface ManagerClass {
  prototype: { complete: Settle; fail: Settle };
}

const PATCHED = Symbol.for('membership.pgBossSettleReported');
const logger = new Logger('JobQueue');

/**
 * pg-boss 10's worker settles a fetched batch without awaiting it: after the handler it calls
 * `complete` (or `fail` when the handler threw) and drops the promise (`src/manager.js`, `onFetch`).
 * When the database has just gone away (a restart), that promise rejects with nobody holding it and
 * Node 20 ends the process — test/e2e/faults-database.e2e-spec.ts saw the service die with
 * "connect ECONNRESET … at async Manager.fail". Here each of those calls' promises gets a handler that
 * logs the failure; a caller that awaits one still sees it rejected. A job left unsettled stays `active`
 * until pg-boss expires it and runs it again, as after a crash: every job here is safe to run twice.
 * pg-boss is pinned (STACK.md), and the unit test beside this fails if its internals move.
 */
export function reportUnsettledJobs(): void {
  const manager = managerClass();
  const proto = manager.prototype as ManagerClass['prototype'] & { [PATCHED]?: true };
  if (proto[PATCHED]) return;
  for (const name of ['complete', 'fail'] as const) {
    const settle = proto[name];
    const reported = function (this: unknown, ...args: unknown[]) {
      const settling = settle.apply(this, args);
      settling.catch((error: unknown) => logger.warn({ err: error }, `job queue could not ${name} jobs`));
      return settling;
    };
    // PgBoss exposes the manager's functions under their `name`s (`#promoteFunctions`): an anonymous
    // wrapper would take `boss.complete` and `boss.fail` away.
    Object.defineProperty(reported, 'name', { value: name });
    proto[name] = reported;
  }
  proto[PATCHED] = true;
}

export function managerClass(): ManagerClass {
  return createRequire(__filename)('pg-boss/src/manager.js') as ManagerClass;
}
