import type { NewPointTransaction } from './points.statements.js';
import type { EntryBase } from './points.types.js';
import { REASON_MAX } from './rewards.rules.js';

/** A caller's bug, not a client's: amounts reaching the ledger are whole and positive. */
export function positiveInteger(amount: number, what: string): void {
  if (!Number.isSafeInteger(amount) || amount <= 0)
    throw new RangeError(`${what}: amount must be a positive integer, got ${amount}`);
}

/** A ledger row as every way of moving points writes it: reason cut to size, who asked from where. */
export function ledgerEntry(
  input: Omit<EntryBase, 'details'> & { details?: Record<string, unknown> },
  type: NewPointTransaction['transaction_type'],
  amount: number,
  paymentTransactionId: string | null,
  createdBy: string | null,
): NewPointTransaction {
  return {
    site_id: input.siteId,
    user_id: input.userId,
    payment_transaction_id: paymentTransactionId,
    reason: input.reason.slice(0, REASON_MAX),
    transaction_type: type,
    created_by: createdBy,
    amount,
    ip_address: input.meta?.ip ?? null,
    user_agent: input.meta?.userAgent?.slice(0, 500) ?? null,
    metadata: input.details ?? {},
  };
}
