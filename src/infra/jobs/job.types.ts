import type { MailKind } from '#app/modules/mail/mail.types.js';

/** Every job the service runs, with its payload: one map gives each handler a typed `data` (STYLE §11). */
export interface JobMap {
  'mail.send': {
    kind: MailKind;
    site_id: string;
    to: string;
    user_id?: string | null;
    variables: Record<string, string | number | boolean | null>;
  };
  /** Purges expired Idempotency-Key rows (scheduled hourly). */
  'idempotency.cleanup': Record<string, never>;
}

export type JobName = keyof JobMap;
export type JobHandler<N extends JobName> = (
  data: JobMap[N],
  /** `retryCount >= retryLimit`: this is the last attempt; a failure now is final. */
  meta: { id: string; retryCount: number; retryLimit: number },
) => Promise<void>;

export const JOB_NAMES: JobName[] = ['mail.send', 'idempotency.cleanup'];
