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

/** Nested form (in the User record and a payment): adds `ip_address` and `user_agent`. */
export function toPointTransactionRecordDto(p: PointTransaction): PointTransactionRecordDto {
  return { ...toPointTransactionDto(p), ip_address: p.ip_address, user_agent: p.user_agent };
}
