import type { RequestMeta } from '#app/common/http/request-meta.js';
import type { PointTransaction } from './entities/point-transaction.entity.js';
import type { RefundedShare } from './rewards.rules.js';

/** Who caused a ledger entry, recorded on it (spec: `ip_address`, `user_agent`). */
export type LedgerMeta = Partial<Pick<RequestMeta, 'ip' | 'userAgent'>>;

export interface EntryBase {
  userId: string;
  siteId: string;
  amount: number;
  reason: string;
  meta?: LedgerMeta;
  /** Stored in the entry's internal metadata (what a spend bought, and so on). */
  details?: Record<string, unknown>;
}

export interface EarnInput extends EntryBase {
  paymentTransactionId?: string | null;
}

export interface CreditInput extends EntryBase {
  type: 'bonus' | 'refund';
  paymentTransactionId?: string | null;
  createdBy?: string | null;
}

export interface AdjustInput extends Omit<EntryBase, 'details'> {
  createdBy: string;
}

export interface ReverseInput {
  paymentTransactionId: string;
  /** How much of the payment has been refunded IN TOTAL so far (cumulative; 1 = all, the default). */
  fraction?: RefundedShare;
  reason: string;
  meta?: LedgerMeta;
}

export interface PointsOutcome {
  /** False when nothing changed (the payment already earned, or zero points). */
  applied: boolean;
  balance: number;
  transaction: PointTransaction | null;
}

export interface ReversalOutcome extends PointsOutcome {
  /** Points this call should have taken back; `reversed` of them were, `shortfall` had been spent. */
  due: number;
  reversed: number;
  shortfall: number;
}
