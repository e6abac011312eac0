import type { PointTransactionRecordDto } from '#app/modules/users/dto/user-records.dto.js';
import type { PointTransactionDto } from './dto/point-transaction.dto.js';
import type { PointTransaction } from './entities/point-transaction.entity.js';

/** The one place a ledger row becomes an answer (its internal metadata never leaves). */
export function toPointTransactionDto(p: PointTransaction): PointTransactionDto {
  return {
    id: p.id,
    site_id: p.site_id,
    user_id: p.user_id,
    payment_transaction_id: p.payment_transaction_id,
    reason: p.reason,
    transaction_type: p.transaction_type,
    created_by: p.created_by,
    created_at: p.created_at.toISOString(),
    amount: p.amount,
  };
}

/**
 * Nested form (in the User record and a payment): adds `ip_address` and `user_agent` — of the user's own
 * request only. An entry staff made (an adjustment: `created_by` another user) keeps theirs out of the
 * member's view; the activity log keeps who did it.
 */
export function toPointTransactionRecordDto(p: PointTransaction): PointTransactionRecordDto {
  const other = p.created_by !== null && p.created_by !== p.user_id;
  return {
    ...toPointTransactionDto(p),
    ip_address: other ? null : p.ip_address,
    user_agent: other ? null : p.user_agent,
  };
}
