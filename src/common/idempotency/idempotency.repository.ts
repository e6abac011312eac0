import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { IdempotencyKey } from './idempotency-key.entity.js';
import { CLAIM_LEASE_SECONDS, REPLAY_WINDOW_HOURS } from './idempotency.rules.js';

export type StoredKey = Pick<
  IdempotencyKey,
  'request_hash' | 'state' | 'response_status' | 'response_body' | 'response_headers'
>;

/**
 * The idempotency table. Each call is one statement on its own (autocommit): a claim is never held
 * open across the handler, whose own transaction runs in between.
 */
@Injectable()
export class IdempotencyRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Claims a key for one request: inserts it, or takes over a row that has expired (a finished answer
   * past its 24 h, or an abandoned claim past its lease). True when this request now owns the key.
   */
  async claim(scope: string, key: string, hash: string, owner: string): Promise<boolean> {
    const rows = await this.db.query<Array<{ owner: string }>>(
      `INSERT INTO idempotency_keys (scope, key, request_hash, state, owner, created_at, expires_at)
       VALUES ($1, $2, $3, 'in_progress', $4, now(), now() + make_interval(secs => $5))
       ON CONFLICT (scope, key) DO UPDATE
          SET request_hash = EXCLUDED.request_hash, state = 'in_progress', owner = EXCLUDED.owner,
              response_status = NULL, response_body = NULL, response_headers = NULL,
              created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
        WHERE idempotency_keys.expires_at <= now()
       RETURNING owner`,
      [scope, key, hash, owner, CLAIM_LEASE_SECONDS],
    );
    return rows[0]?.owner === owner;
  }

  /** The live (unexpired) row of a key, if any. */
  async findLive(scope: string, key: string): Promise<StoredKey | null> {
    const rows = await this.db.query<StoredKey[]>(
      `SELECT request_hash, state, response_status, response_body, response_headers
         FROM idempotency_keys
        WHERE scope = $1 AND key = $2 AND expires_at > now()`,
      [scope, key],
    );
    return rows[0] ?? null;
  }

  /** Keeps the answer for replay, for 24 h from the first request. */
  async complete(
    scope: string,
    key: string,
    owner: string,
    response: { status: number; body: unknown; headers: Record<string, string> },
  ): Promise<void> {
    await this.db.query(
      `UPDATE idempotency_keys
          SET state = 'completed', response_status = $4, response_body = $5::json, response_headers = $6::jsonb,
              expires_at = created_at + make_interval(hours => $7)
        WHERE scope = $1 AND key = $2 AND owner = $3`,
      [
        scope,
        key,
        owner,
        response.status,
        JSON.stringify(response.body ?? null),
        JSON.stringify(response.headers),
        REPLAY_WINDOW_HOURS,
      ],
    );
  }

  /** Frees a key whose request should not be replayed (5xx, validation failure). */
  async release(scope: string, key: string, owner: string): Promise<void> {
    await this.db.query(`DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 AND owner = $3`, [
      scope,
      key,
      owner,
    ]);
  }

  /** Deletes expired rows in batches; answers how many went. */
  async purgeExpired(batchSize = 5000): Promise<number> {
    let total = 0;
    for (;;) {
      const [, count] = await this.db.query<[unknown[], number]>(
        `DELETE FROM idempotency_keys
          WHERE (scope, key) IN (SELECT scope, key FROM idempotency_keys WHERE expires_at <= now() LIMIT $1)`,
        [batchSize],
      );
      total += count;
      if (count < batchSize) return total;
    }
  }
}
