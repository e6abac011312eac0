import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

export interface ExportRow {
  code: string;
  claimed_by_user_id: string | null;
  claimed_at: Date | null;
}

/** The generated codes of bulk discount codes (`discount_unique_codes`). */
@Injectable()
export class UniqueCodesRepository {
  constructor(private readonly tx: TransactionRunner) {}

  /** The ambient transaction's manager, or the pool's outside one. */
  private get db(): EntityManager {
    return this.tx.manager;
  }

  private m(manager?: EntityManager): EntityManager {
    return manager ?? this.tx.manager;
  }

  /**
   * Serialises bulk generation on one site until the transaction ends, so the code-space count and
   * the inserts of two concurrent requests cannot interleave (nor deadlock on each other's codes).
   */
  async lockSiteForGeneration(siteId: string, manager: EntityManager): Promise<void> {
    await this.tx.lockUntilEnd(`discount_unique_codes:${siteId}`, manager);
  }

  /**
   * Inserts the batch in one statement and answers the codes that went in; a code the site already
   * has is skipped (ON CONFLICT DO NOTHING) for the caller to replace.
   */
  async insertBatch(
    siteId: string,
    codeId: string,
    codes: string[],
    manager: EntityManager,
  ): Promise<string[]> {
    const rows: Array<{ code: string }> = await manager.query(
      `INSERT INTO discount_unique_codes (site_id, discount_code_id, code)
       SELECT $1, $2, c FROM unnest($3::text[]) AS c
       ON CONFLICT (site_id, code) DO NOTHING
       RETURNING code`,
      [siteId, codeId, codes],
    );
    return rows.map((r) => r.code);
  }

  /** Of these codes, the ones with at least one unclaimed generated code (one query, partial index). */
  async withUnclaimed(codeIds: string[]): Promise<Set<string>> {
    if (!codeIds.length) return new Set();
    const rows: Array<{ id: string }> = await this.db.query(
      `SELECT d.id FROM unnest($1::uuid[]) AS d(id)
        WHERE EXISTS (SELECT 1 FROM discount_unique_codes u
                       WHERE u.discount_code_id = d.id AND u.claimed_at IS NULL)`,
      [codeIds],
    );
    return new Set(rows.map((r) => r.id));
  }

  /** One page of a discount code's generated codes in code order, after `afterCode` (keyset). */
  page(
    codeId: string,
    afterCode: string | null,
    limit: number,
    manager?: EntityManager,
  ): Promise<ExportRow[]> {
    return this.m(manager).query(
      `SELECT code, claimed_by_user_id, claimed_at FROM discount_unique_codes
        WHERE discount_code_id = $1 AND ($2::text IS NULL OR code > $2)
        ORDER BY code LIMIT $3`,
      [codeId, afterCode, limit],
    );
  }
}
