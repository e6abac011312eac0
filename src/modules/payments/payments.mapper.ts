import type {
  PaymentTransactionRecordDto,
  PointTransactionRecordDto,
} from '#app/modules/users/dto/user-records.dto.js';
import type { PaymentTransactionDto } from './dto/payment.dto.js';
import type { PaymentTransaction } from './entities/payment-transaction.entity.js';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** Only what a client may see: internal pricing, spend accounting and raw gateway answers stay inside. */
export function toPaymentDto(p: PaymentTransaction): PaymentTransactionDto {
  return {
    id: p.id,
    site_id: p.site_id,
    gateway: p.gateway,
    gateway_transaction_id: p.gateway_transaction_id,
    currency: p.currency,
    description: p.description,
    payment_method: p.payment_method,
    status: p.status,
    created_at: p.created_at.toISOString(),
    updated_at: p.updated_at.toISOString(),
    webhook_received_at: iso(p.webhook_received_at),
    user_id: p.user_id,
    amount_cents: p.amount_cents,
    fraud_score: p.fraud_score === null ? null : Number(p.fraud_score),
    metadata: p.metadata,
    refunded_cents: p.refunded_cents,
  };
}

/** The nested form of the User record (with its points, ip and user agent, and the webhook data). */
export function toPaymentRecordDto(
  p: PaymentTransaction,
  points: PointTransactionRecordDto[],
  subscription: Record<string, unknown> | null = null,
): PaymentTransactionRecordDto {
  return {
    ...toPaymentDto(p),
    subscription_id: p.subscription_id,
    subscription,
    points,
    ip_address: p.ip_address,
    user_agent: p.user_agent,
    webhook_data: p.webhook_data,
  };
}
