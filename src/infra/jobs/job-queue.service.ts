import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import PgBoss from 'pg-boss';
import type { EntityManager } from 'typeorm';
import { AppConfig } from '#app/config/app-config.js';
import { DATABASE_URL } from '#app/infra/database/database.tokens.js';
import { keepPlan } from '#app/infra/database/kept-plans.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { Inject } from '@nestjs/common';
import { JOB_NAMES, type JobHandler, type JobMap, type JobName } from './job.types.js';
import { reportUnsettledJobs } from './pg-boss-settle.js';
import {
  concurrencyOf,
  DEAD_LETTER_DAYS,
  JOB_POOL_SIZE,
  JOB_RETRY_LIMIT,
  keepsPromise,
  POLL_SECONDS,
  PROMISE_RETRY_AFTER_S,
} from './queue-policy.js';

export interface EnqueueOptions {
  /**
   * Enqueue inside this transaction (else the ambient one, else on its own): the job exists exactly when
   * the business change commits.
   */
  manager?: EntityManager;
  /**
   * Send it with the ambient transaction's next statement rather than on a round trip of its own
   * (`TransactionRunner.defer`); pg-boss then cannot tell whether a singleton was taken.
   */
  defer?: boolean;
  singletonKey?: string;
  startAfter?: Date | number;
}

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Durable jobs on the same database (pg-boss): retried with back-off, one worker wins across instances.
 * Workers run when `JOBS=on`; tests keep them off and `drain()` the queue on demand instead.
 */
@Injectable()
export class JobQueue implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(JobQueue.name);
  private readonly boss: PgBoss;
  private readonly handlers = new Map<JobName, JobHandler<JobName>>();
  private readonly schedules = new Map<JobName, { cron: string; data: object }>();
  private readonly runnables = new Map<string, () => Promise<number>>();
  /** This instance's worker ids per queue (pg-boss's), to wake them. */
  private readonly workers = new Map<JobName, string[]>();
  private started = false;

  constructor(
    private readonly config: AppConfig,
    private readonly tx: TransactionRunner,
    @Inject(DATABASE_URL) databaseUrl: string,
  ) {
    this.boss = new PgBoss({
      connectionString: databaseUrl,
      max: JOB_POOL_SIZE,
      schema: 'pgboss',
      archiveFailedAfterSeconds: DEAD_LETTER_DAYS * 86_400,
    });
    this.boss.on('error', (error) => this.logger.error({ err: error }, 'job queue error'));
    reportUnsettledJobs(); // a database restart must not end the process (pg-boss-settle.ts)
  }

  register<N extends JobName>(name: N, handler: JobHandler<N>): void {
    this.handlers.set(name, handler as unknown as JobHandler<JobName>);
  }

  /**
   * Runs a job on a cron schedule (UTC), once across all instances (pg-boss keeps the schedule in the
   * database). Call from `onModuleInit`; applied when the queue starts.
   */
  schedule<N extends JobName>(name: N, cron: string, data: JobMap[N]): void {
    this.schedules.set(name, { cron, data });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.boss.start();
    await this.createQueues();
    for (const [name, { cron, data }] of this.schedules) {
      await this.boss.schedule(name, cron, data, { tz: 'UTC' });
    }
    this.started = true;
    if (!this.config.jobs) return;
    for (const name of JOB_NAMES) await this.startWorkers(name);
  }

  /**
   * Creates the queues that do not exist yet, one instance at a time: pg-boss 10's `create_queue` adds a
   * partition with foreign keys to the shared tables, and two instances starting together on a fresh
   * database deadlock in it ("deadlock detected" stopped one of them; test/e2e/two-instances). The one
   * that waited finds the queues made and creates nothing.
   */
  private async createQueues(): Promise<void> {
    const missing = async (): Promise<JobName[]> => {
      const made = new Set((await this.boss.getQueues()).map((q) => q.name));
      return JOB_NAMES.filter((name) => !made.has(name));
    };
    if (!(await missing()).length) return;
    await this.tx.exclusively('pgboss.create-queues', async () => {
      for (const name of await missing()) {
        await this.boss.createQueue(name, {
          name,
          retryLimit: JOB_RETRY_LIMIT,
          retryDelay: 30,
          retryBackoff: true,
        });
      }
    });
  }

  /**
   * A queue's workers: each fetches up to `batch` jobs, runs them side by side, settles each on its own
   * (a failure retries that job alone), and fetches again at once while it finds work; idle, it polls
   * every `POLL_SECONDS` or sooner when this instance enqueues on its queue (`wake`).
   */
  private async startWorkers(name: JobName): Promise<void> {
    const { batch, workers } = concurrencyOf(name);
    const ids: string[] = [];
    for (let w = 0; w < workers; w++) {
      let self = '';
      self = await this.boss.work(
        name,
        { batchSize: batch, pollingIntervalSeconds: POLL_SECONDS, includeMetadata: true },
        async (jobs) => {
          await this.runBatch(name, jobs);
          // More may be waiting: look again now rather than after the polling interval.
          if (jobs.length) this.boss.notifyWorker(self);
        },
      );
      ids.push(self);
    }
    this.workers.set(name, ids);
  }

  /** Runs a fetched batch concurrently; failed jobs are failed here, pg-boss completes the rest. */
  private async runBatch(
    name: JobName,
    jobs: Array<{ id: string; data: unknown; retryCount?: number; retryLimit?: number }>,
  ): Promise<void> {
    const results = await Promise.allSettled(jobs.map((job) => this.run(name, job)));
    const failures = results.flatMap((result, i) => {
      if (result.status !== 'rejected') return [];
      this.logger.warn({ job: name, jobId: jobs[i].id, err: errorText(result.reason) }, 'job failed');
      return [this.boss.fail(name, jobs[i].id, { message: errorText(result.reason) })];
    });
    await Promise.all(failures);
  }

  /** Wakes this instance's idle workers of a queue (a job was just committed to it). */
  private wake(name: JobName): void {
    for (const id of this.workers.get(name) ?? []) this.boss.notifyWorker(id);
  }

  /** Whether a handler exists for a job name. */
  has(name: string): name is JobName {
    return this.handlers.has(name as JobName);
  }

  /**
   * A scheduled job an admin may run now (`POST /admin/jobs/{name}/run`, DESIGN §10): `run` answers how
   * many records it acted on. Features register theirs in `onModuleInit`.
   */
  runnable(name: string, run: () => Promise<number>): void {
    this.runnables.set(name, run);
  }

  /** Runs a registered job now; undefined when no feature registered `name`. */
  async runNow(name: string): Promise<number | undefined> {
    const run = this.runnables.get(name);
    return run ? run() : undefined;
  }

  /** The names an admin may run now. */
  runnableNames(): string[] {
    return [...this.runnables.keys()].sort();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.started) await this.boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    this.started = false;
  }

  isRunning(): boolean {
    return this.started;
  }

  /**
   * Queues a job in the caller's transaction (the `manager` given, else the ambient one), or on its own
   * outside any. This instance's workers of the queue are woken once it commits, so a sale's e-mail
   * leaves at once rather than at the next poll.
   */
  async enqueue<N extends JobName>(name: N, data: JobMap[N], options: EnqueueOptions = {}): Promise<void> {
    const { manager: given, defer, ...jobOptions } = options;
    const manager = given ?? (this.tx.active ? this.tx.manager : undefined);
    const db = this.executor(defer, manager);
    await this.boss.send(name, data, { ...jobOptions, ...(db ? { db } : {}) });
    if (this.workers.has(name)) this.tx.afterCommit(() => this.wake(name));
  }

  /**
   * Sends a failed job (a dead letter) again: pg-boss's own retry when it still holds the job, else a
   * new job with the same data.
   */
  async retry<N extends JobName>(name: N, id: string, data: JobMap[N]): Promise<void> {
    try {
      await this.boss.retry(name, id);
    } catch {
      await this.boss.send(name, data);
    }
    this.wake(name);
  }

  /** Queues many jobs of one queue in one statement, in the ambient transaction (or deferred with it). */
  async enqueueMany<N extends JobName>(
    name: N,
    datas: JobMap[N][],
    options: { defer?: boolean } = {},
  ): Promise<void> {
    if (!datas.length) return;
    const manager = this.tx.active ? this.tx.manager : undefined;
    const db = this.executor(options.defer, manager);
    await this.boss.insert(
      datas.map((data) => ({ name, data })),
      db ? { db } : {},
    );
    if (this.workers.has(name)) this.tx.afterCommit(() => this.wake(name));
  }

  /**
   * Where pg-boss writes a job: deferred to travel with the transaction's next statement (its plan kept:
   * pg-boss's insert is the same text every time), in the caller's transaction, or (undefined) on its own.
   */
  private executor(defer: boolean | undefined, manager: EntityManager | undefined) {
    if (defer)
      return {
        executeSql: (text: string, values: unknown[]) => {
          this.tx.defer(keepPlan(text), values);
          return Promise.resolve({ rows: [] });
        },
      };
    if (!manager) return undefined;
    return {
      executeSql: async (text: string, values: unknown[]) => ({
        rows: await manager.query<unknown[]>(text, values),
      }),
    };
  }

  /** Runs every due job now (tests and `POST /admin/jobs/{name}/run`); answers how many ran. */
  async drain(names: JobName[] = JOB_NAMES): Promise<number> {
    let ran = 0;
    for (let round = 0; round < 20; round++) {
      let ranThisRound = 0;
      for (const name of names) {
        const jobs = await this.boss.fetch<JobMap[typeof name]>(name, {
          batchSize: 50,
          includeMetadata: true,
        });
        for (const job of jobs) {
          try {
            await this.run(name, job);
            await this.boss.complete(name, job.id);
          } catch (error) {
            this.logger.warn({ err: error, job: name, jobId: job.id }, 'job failed');
            await this.boss.fail(name, job.id, { message: (error as Error).message });
          }
          ranThisRound++;
        }
      }
      ran += ranThisRound;
      if (ranThisRound === 0) break;
    }
    return ran;
  }

  /** The states of a queue's jobs (tests, admin views). */
  async jobsOf(name: JobName): Promise<Array<{ id: string; state: string; data: unknown; output: unknown }>> {
    const result = await this.boss
      .getDb()
      .executeSql(`SELECT id, state, data, output FROM pgboss.job WHERE name = $1 ORDER BY created_on`, [
        name,
      ]);
    return result.rows as Array<{ id: string; state: string; data: unknown; output: unknown }>;
  }

  private async run(
    name: JobName,
    job: { id: string; data: unknown; retryCount?: number; retryLimit?: number },
  ): Promise<void> {
    const handler = this.handlers.get(name);
    if (!handler) throw new Error(`No handler registered for job ${name}`);
    const meta = {
      id: job.id,
      retryCount: job.retryCount ?? 0,
      retryLimit: job.retryLimit ?? JOB_RETRY_LIMIT,
    };
    try {
      await handler(job.data as JobMap[JobName], meta);
    } catch (error) {
      if (meta.retryCount >= meta.retryLimit) await this.spent(name, job, error);
      throw error;
    }
  }

  /** A job's last attempt failed: logged as an error, and a kept promise sent again later (`keepsPromise`). */
  private async spent(name: JobName, job: { id: string; data: unknown }, error: unknown): Promise<void> {
    const kept = keepsPromise(name);
    if (kept) await this.boss.send(name, job.data as object, { startAfter: PROMISE_RETRY_AFTER_S });
    this.logger.error(
      { job: name, jobId: job.id, err: errorText(error) },
      kept ? 'job failed its last attempt: sent again later' : 'job failed its last attempt',
    );
  }
}
