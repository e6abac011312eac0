import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { LimitHoldState } from './limit-holds.rules.js';
import type { LimitsState } from './responsible-play.rules.js';

/** The queries of limit holds; each runs in the caller's transaction (the deletion's, the new account's). */
@Injectable()
export class LimitHoldsRepository {
  /**
   * Keeps (or replaces) the hold of an address, and sweeps holds that have lapsed, so the table holds an
   * address no longer than it must (the sweep spares the row being written: one statement may not touch a
   * row twice).
   */
  async keep(
    manager: EntityManager,
    siteId: string,
    addressHash: string,
    hold: LimitHoldState,
  ): Promise<void> {
    await manager.query(
      `WITH swept AS (
         DELETE FROM limit_holds
          WHERE expires_at <= now() AND NOT (site_id = $1 AND address_hash = $2))
       INSERT INTO limit_holds
         (site_id, address_hash, paused_until, monthly_spend_limit_cents, limit_until, month, spent_cents, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (site_id, address_hash) DO UPDATE
          SET paused_until = EXCLUDED.paused_until,
              monthly_spend_limit_cents = EXCLUDED.monthly_spend_limit_cents,
              limit_until = EXCLUDED.limit_until,
              month = EXCLUDED.month,
              spent_cents = EXCLUDED.spent_cents,
              expires_at = EXCLUDED.expires_at,
              created_at = now()`,
      [
        siteId,
        addressHash,
        hold.paused_until,
        hold.monthly_spend_limit_cents,
        hold.limit_until,
        hold.month,
        hold.spent_cents,
        hold.expires_at,
      ],
    );
  }

  /** Takes the hold of an address (any of its hashes, one per key in use), removing it; null when none. */
  async take(
    manager: EntityManager,
    siteId: string,
    addressHashes: string[],
  ): Promise<LimitHoldState | null> {
    // TypeORM answers a DELETE … RETURNING as [rows, count].
    const [rows] = await manager.query<[LimitHoldState[], number]>(
      `DELETE FROM limit_holds WHERE site_id = $1 AND address_hash = ANY($2::char(64)[])
       RETURNING paused_until, monthly_spend_limit_cents, limit_until, month, spent_cents, expires_at`,
      [siteId, addressHashes],
    );
    if (!rows.length) return null;
    // Under two keys (a rotation) an address could have two holds: the one written last is the account's.
    const row = rows.reduce((a, b) => (new Date(a.expires_at) >= new Date(b.expires_at) ? a : b));
    return {
      ...row,
      paused_until: row.paused_until && new Date(row.paused_until),
      limit_until: row.limit_until && new Date(row.limit_until),
      expires_at: new Date(row.expires_at),
    };
  }

  /** Starts a new account with carried limits and the month's spend under them. */
  async startWith(
    manager: EntityManager,
    userId: string,
    carried: {
      state: Pick<LimitsState, 'monthly_spend_limit_cents' | 'paused_until'>;
      spentCents: number;
      month: string;
    },
  ): Promise<void> {
    await manager.query(
      `WITH limits AS (
         INSERT INTO user_limits (user_id, monthly_spend_limit_cents, paused_until)
         VALUES ($1::uuid, $2::integer, $3::timestamptz)
         ON CONFLICT (user_id) DO UPDATE
            SET monthly_spend_limit_cents = EXCLUDED.monthly_spend_limit_cents,
                paused_until = EXCLUDED.paused_until, updated_at = now())
       INSERT INTO user_monthly_spend (user_id, month, spent_cents)
       SELECT $1::uuid, $4::varchar, $5::integer WHERE $5::integer > 0
       ON CONFLICT (user_id, month) DO UPDATE SET spent_cents = EXCLUDED.spent_cents, updated_at = now()`,
      [
        userId,
        carried.state.monthly_spend_limit_cents,
        carried.state.paused_until,
        carried.month,
        carried.spentCents,
      ],
    );
  }
}
