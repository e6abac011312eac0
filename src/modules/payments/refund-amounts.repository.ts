import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { PaymentTransaction } from './entities/payment-transaction.entity.js';

/**
 * The amounts a refund moves on its payment row (`RefundsService`): reserved before the gateway is called, so
 * that two refunds can never together pass what was paid, and settled once it has answered.
 */
@Injectable()
export class RefundAmountsRepository {
  /** Reserves a refund amount; false when it would pass what was paid and not yet refunded. */
  async reserveRefund(id: string, amount: number, manager: EntityManager): Promise<boolean> {
    const result = await manager.query<[unknown[], number]>(
      `UPDATE payment_transactions SET refund_pending_cents = refund_pending_cents + $2, updated_at = now()
        WHERE id = $1 AND status IN ('succeeded', 'partially_refunded')
          AND refunded_cents + refund_pending_cents + $2 <= amount_cents
        RETURNING id`,
      [id, amount],
    );
    return result[0].length === 1;
  }

  /** Settles a reserved refund: done (moves it to refunded) or not (gives the reservation back). */
  async settleRefund(
    id: string,
    amount: number,
    done: boolean,
    manager: EntityManager,
  ): Promise<PaymentTransaction> {
    const result = await manager.query<[PaymentTransaction[], number]>(
      `UPDATE payment_transactions
          SET refund_pending_cents = refund_pending_cents - $2,
              refunded_cents = refunded_cents + CASE WHEN $3 THEN $2 ELSE 0 END,
              status = CASE WHEN NOT $3 THEN status
                            WHEN refunded_cents + $2 >= amount_cents THEN 'refunded'
                            ELSE 'partially_refunded' END,
              updated_at = now()
        WHERE id = $1
        RETURNING *`,
      [id, amount, done],
    );
    return result[0][0];
  }
}
