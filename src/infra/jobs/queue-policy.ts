import type { JobName } from './job.types.js';

/**
 * How the job queues behave (`JobQueue` applies it): pools, retries, how long dead letters stay, how many jobs
 * each queue runs at once, and which queues stand for promises that must outlive their attempts.
 */

/** pg-boss's own pool; the embedded server's connection cap counts it. */
export const JOB_POOL_SIZE = 4;

/**
 * How long a job that failed its last attempt stays in `pgboss.job`, where admins list dead letters and send
 * them again (`GET /admin/integrations/dead-letters`); pg-boss's default moved them to its archive after 12
 * hours, out of the list. The archive then keeps them for its own retention (7 days) before deleting them.
 */
export const DEAD_LETTER_DAYS = 7;

/** Attempts after the first; handlers learn from `meta` when the last one runs. */
export const JOB_RETRY_LIMIT = 5;

/** How often an idle worker looks for jobs that no wake-up announced (another instance enqueued them). */
export const POLL_SECONDS = 1;

/**
 * Jobs in flight per queue and instance: `workers` × `batch`. Mail and the webhook inbox carry a sale's
 * traffic; the rest are occasional. Fulfilments from the inbox share the database pool with requests,
 * so fewer of them run at once.
 */
const DEFAULT_CONCURRENCY = { workers: 1, batch: 2 };
const QUEUE_CONCURRENCY: Partial<Record<JobName, { workers: number; batch: number }>> = {
  'mail.send': { workers: 2, batch: 10 },
  'entries.notify': { workers: 1, batch: 10 },
  'payments.notify': { workers: 2, batch: 10 },
  'inbound.process': { workers: 1, batch: 8 },
  'payments.refund': { workers: 1, batch: 4 },
};

export const concurrencyOf = (name: JobName): { workers: number; batch: number } =>
  QUEUE_CONCURRENCY[name] ?? DEFAULT_CONCURRENCY;

/**
 * Queues whose job stands for a promise that a few failed attempts must not drop: a refund owed, a schedule
 * at the gateway to delete (it would charge a cancelled member), a provider's news to read (a cancellation
 * owing a refund). Six attempts span about 16 minutes of back-off; a job that spends them is sent again
 * `PROMISE_RETRY_AFTER_S` later, for as long as it fails, each time logged as an error (the spent job stays
 * `failed`). The refund's handler ends without throwing when nothing of it is owed any more; the others go
 * on while the provider refuses them (a key put right later, or an error someone must look at in the log).
 */
const KEPT_PROMISES = new Set<JobName>(['payments.refund', 'subscriptions.delete-schedule', 'merch.sync']);

export const keepsPromise = (name: JobName): boolean => KEPT_PROMISES.has(name);
export const PROMISE_RETRY_AFTER_S = 3600;
