import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';

export interface DeadLetterRow {
  id: string;
  data: Record<string, unknown>;
  output: unknown;
  retry_count: number;
  created_on: Date;
  completed_on: Date | null;
}

/** Dead letters: deliveries the queue (pg-boss, in the same database) gave up on after every retry. */
@Injectable()
export class IntegrationsRepository {
  constructor(private readonly tx: TransactionRunner) {}

  /** A site's dead letters, newest first; keyset on (created_on, id). */
  deadLetters(siteId: string, limit: number, cursor?: string): Promise<DeadLetterRow[]> {
    return this.tx.manager.query<DeadLetterRow[]>(
      `SELECT id::text AS id, data, output, retry_count, created_on, completed_on
         FROM pgboss.job
        WHERE name = 'integrations.deliver' AND state = 'failed' AND data->>'site_id' = $1
          AND ($3::uuid IS NULL OR (created_on, id) < (SELECT created_on, id FROM pgboss.job
                                                     WHERE name = 'integrations.deliver' AND id = $3::uuid))
        ORDER BY created_on DESC, id DESC
        LIMIT $2`,
      [siteId, limit, cursor ?? null],
    );
  }

  async deadLetter(id: string): Promise<DeadLetterRow | null> {
    const rows = await this.tx.manager.query<DeadLetterRow[]>(
      `SELECT id::text AS id, data, output, retry_count, created_on, completed_on
         FROM pgboss.job WHERE name = 'integrations.deliver' AND state = 'failed' AND id = $1::uuid`,
      [id],
    );
    return rows[0] ?? null;
  }
}
