import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';

export interface NewSpinClaim {
  jti: string;
  siteId: string;
  userId: string;
  segmentId: number;
  credits: number;
}

/** Every query of the spin game, in the ambient transaction when there is one. */
@Injectable()
export class GamingRepository {
  constructor(private readonly tx: TransactionRunner) {}

  /**
   * Records a claim unless the database refuses it (the token already spent, or the user already
   * holds a spin reward): true when recorded. A concurrent claim of the same token or by the same user
   * waits for the first to commit and then finds the conflict.
   */
  async insertClaim(claim: NewSpinClaim): Promise<boolean> {
    const rows = await this.tx.manager.query<unknown[]>(
      `INSERT INTO spin_claims (jti, site_id, user_id, segment_id, credits)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING jti`,
      [claim.jti, claim.siteId, claim.userId, claim.segmentId, claim.credits],
    );
    return rows.length === 1;
  }

  /** Whether a token has been claimed (after `insertClaim` refused: this conflict, or the user's reward). */
  async isClaimed(jti: string): Promise<boolean> {
    const rows = await this.tx.manager.query<unknown[]>(`SELECT 1 FROM spin_claims WHERE jti = $1`, [jti]);
    return rows.length === 1;
  }

  /** Adds `credits` to the user's bonus credits; answers the balance after. */
  async grant(userId: string, siteId: string, credits: number): Promise<number> {
    const rows = await this.tx.manager.query<Array<{ credits: number }>>(
      `INSERT INTO bonus_credits (user_id, site_id, credits) VALUES ($1, $2, $3)
       ON CONFLICT (user_id) DO UPDATE
         SET credits = bonus_credits.credits + EXCLUDED.credits, updated_at = now()
       RETURNING credits`,
      [userId, siteId, credits],
    );
    return rows[0].credits;
  }

  /** Takes all `quantity` credits or none: one conditional UPDATE, never below zero under concurrency. */
  async take(userId: string, siteId: string, quantity: number): Promise<boolean> {
    const [rows] = await this.tx.manager.query<[unknown[], number]>(
      `UPDATE bonus_credits SET credits = credits - $3, updated_at = now()
        WHERE user_id = $1 AND site_id = $2 AND credits >= $3
        RETURNING 1`,
      [userId, siteId, quantity],
    );
    return rows.length === 1;
  }
}
