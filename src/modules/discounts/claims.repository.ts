import { Injectable } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';

/**
 * Why the claim's last statement refused it: no use left, a price other than the one spent, or the code
 * deleted or switched off since the claim read it.
 */
const REFUSALS = ['CODE_USED_UP', 'PRICE_CHANGED', 'CODE_WITHDRAWN'] as const;
export type ClaimRefusal = (typeof REFUSALS)[number];

const isRefusal = (detail: string | undefined): detail is ClaimRefusal =>
  (REFUSALS as readonly string[]).includes(detail ?? '');

/** The claim's last statement refused: the transaction was rolled back. */
export class ClaimRefused extends Error {
  constructor(readonly reason: ClaimRefusal = 'CODE_USED_UP') {
    super(`the claim was refused: ${reason}`);
  }
}

/**
 * Once per user (`once_per_user` set): the unique index refuses a second such claim, and the `NOT EXISTS`
 * one made while the code still allowed several (those carry no `once_per_user`).
 */
const INSERT_CLAIM = `
  INSERT INTO discount_claims (site_id, discount_code_id, user_id, once_per_user, code, points_spent)
  SELECT $1::varchar, $2::uuid, $3::uuid, $4::uuid, $5::varchar, $6::integer
   WHERE $4::uuid IS NULL
      OR NOT EXISTS (SELECT 1 FROM discount_claims c WHERE c.user_id = $3::uuid AND c.discount_code_id = $2::uuid)
  ON CONFLICT (discount_code_id, once_per_user) WHERE once_per_user IS NOT NULL DO NOTHING
  RETURNING id`;

/**
 * The use counter, refusing by raising so that it can travel with COMMIT (`TransactionRunner.commitWith`).
 * Everything the claim read before its transaction is held to the row as updated, which is what `RETURNING`
 * sees (the statement's own snapshot would still show the row as it was): the code still live and active,
 * a use left, and the price ($2) the claim spent. The row is counted up first and a refusal raises, which
 * rolls the count back with the rest.
 */
const USE_CODE = `
  WITH used AS (
    UPDATE discount_codes SET current_uses = current_uses + 1, updated_at = now()
     WHERE id = $1
     RETURNING current_uses, max_uses, points_required, active AND deleted_at IS NULL AS live)
  SELECT CASE
           WHEN NOT live THEN claim_refused('CODE_WITHDRAWN')
           WHEN max_uses IS NOT NULL AND current_uses > max_uses THEN claim_refused('CODE_USED_UP')
           WHEN points_required <> $2::integer THEN claim_refused('PRICE_CHANGED')
           ELSE current_uses
         END
    FROM used
  UNION ALL
  SELECT claim_refused('CODE_WITHDRAWN') WHERE NOT EXISTS (SELECT 1 FROM used)`;

/**
 * The queries of a discount claim, in the order it runs them, in the shape of the fulfilment (issue 9):
 * the claim row opens the transaction in the same round trip (its unique index decides "once per
 * user"); a bulk code's generated code is taken with `SKIP LOCKED` (parallel claimers never wait on
 * each other's pick); the code's use counter, the row every claimer contends for, goes last, with
 * the commit. (An `UPDATE … RETURNING` is wrapped in a CTE and selected: TypeORM answers a bare UPDATE
 * with `[rows, count]`.)
 */
@Injectable()
export class ClaimsRepository {
  constructor(private readonly tx: TransactionRunner) {}

  /** Opens the claim's transaction with its row; `work` gets the claim id, or null (already claimed). */
  open<T>(
    c: {
      siteId: string;
      codeId: string;
      userId: string;
      oncePerUser: boolean;
      code: string | null;
      pointsSpent: number;
    },
    work: (claimId: string | null) => Promise<T>,
  ): Promise<T> {
    return this.tx.runOpening(
      {
        sql: INSERT_CLAIM,
        values: [c.siteId, c.codeId, c.userId, c.oncePerUser ? c.userId : null, c.code, c.pointsSpent],
      },
      (rows) => work((rows[0] as { id: string } | undefined)?.id ?? null),
    );
  }

  /**
   * Hands the claim an unclaimed generated code of the bulk code; null when none is left. Codes other claims
   * hold are skipped; when only such codes are left, it waits for them, since a claim may yet roll back
   * (its code's use refused at the commit) and leave its code unclaimed: "none left" is then the truth.
   */
  async takeUniqueCode(claimId: string, codeId: string, userId: string): Promise<string | null> {
    for (const lock of ['FOR UPDATE SKIP LOCKED', 'FOR UPDATE']) {
      const rows = await this.tx.manager.query<Array<{ code: string }>>(
        `WITH picked AS (
           UPDATE discount_unique_codes SET claimed_by_user_id = $3, claimed_at = now()
            WHERE id = (SELECT id FROM discount_unique_codes
                         WHERE discount_code_id = $2 AND claimed_at IS NULL
                         LIMIT 1 ${lock})
            RETURNING id, code),
         handed AS (
           UPDATE discount_claims c SET unique_code_id = picked.id, code = picked.code
             FROM picked WHERE c.id = $1
           RETURNING c.code)
         SELECT code FROM handed`,
        [claimId, codeId, userId],
      );
      if (rows[0]) return rows[0].code;
    }
    return null;
  }

  /**
   * The code's use, last, with the commit (and whatever the claim deferred), at the price the claim spent.
   * Throws `ClaimRefused`.
   */
  async useAndCommit(codeId: string, pointsSpent: number): Promise<void> {
    try {
      await this.tx.commitWith(USE_CODE, [codeId, pointsSpent]);
    } catch (error) {
      const cause =
        error instanceof QueryFailedError
          ? (error.driverError as { code?: string; message?: string; detail?: string })
          : {};
      if (cause.code === 'P0001' && cause.message === 'CLAIM_REFUSED')
        throw new ClaimRefused(isRefusal(cause.detail) ? cause.detail : 'CODE_USED_UP');
      throw error;
    }
  }

  /** For each code, whether the user claimed it and the generated codes it was handed (oldest first). */
  async claimedBy(userId: string, codeIds: string[]): Promise<Map<string, string[]>> {
    const byCode = new Map<string, string[]>();
    if (!codeIds.length) return byCode;
    const rows = await this.tx.manager.query<Array<{ discount_code_id: string; code: string | null }>>(
      `SELECT c.discount_code_id, c.code FROM discount_claims c
        WHERE c.user_id = $1 AND c.discount_code_id = ANY($2::uuid[])
        ORDER BY c.created_at, c.id`,
      [userId, codeIds],
    );
    for (const r of rows) {
      const codes = byCode.get(r.discount_code_id) ?? [];
      if (r.code !== null) codes.push(r.code);
      byCode.set(r.discount_code_id, codes);
    }
    return byCode;
  }
}
