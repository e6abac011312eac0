import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { PaymentTransaction } from './entities/payment-transaction.entity.js';

/**
 * The amounts a refund moves on its payment row (`RefundsService`): reserved before the gateway is called, so
 * that two refunds can never together pass what was paid, and settled once it has answered.
 */
@Injectable()
export class RefundAmountsRepository {
  /**
   * Reserves a refund amount; false when it would pass what was paid and not yet refunded. A part of a queued
   * refund (`queued`, its whole amount) reserves only while no other refund is in flight and what was sent of
   * that queued refund (its entries in the history, written with each settlement) leaves room for it: two
   * copies of one refund job (pg-boss keeps no singleton on these queues) cannot both send it.
   */
  async reserveRefund(id: string, amount: number, manager: EntityManager, queued?: number): Promise<boolean> {
    const result = await manager.query<[unknown[], number]>(
      `UPDATE payment_transactions
          SET refund_pending_cents = refund_pending_cents + $2, refund_reserved_at = now(), updated_at = now()
        WHERE id = $1 AND status IN ('succeeded', 'partially_refunded')
          AND refunded_cents + refund_pending_cents + $2 <= amount_cents
          AND ($3::integer IS NULL OR (
                refund_pending_cents = 0
            AND (SELECT COALESCE(sum((r->>'amount_cents')::integer), 0)
                   FROM jsonb_array_elements(CASE WHEN jsonb_typeof(metadata->'refunds') = 'array'
                                                THEN metadata->'refunds' ELSE '[]'::jsonb END) r
                  WHERE jsonb_typeof(r) = 'object' AND r->>'queued_refund' = $3::text) + $2 <= $3))
        RETURNING id`,
      [id, amount, queued ?? null],
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

  /** Notes a held refund on the payment (`metadata.held_refunds`), in one statement. */
  async noteHeld(id: string, entry: object, manager: EntityManager): Promise<void> {
    await manager.query(
      `UPDATE payment_transactions
          SET metadata = jsonb_set(metadata, '{held_refunds}',
                                   COALESCE(metadata->'held_refunds', '[]'::jsonb) || $2::jsonb)
        WHERE id = $1`,
      [id, JSON.stringify([entry])],
    );
  }

  /**
   * Payments with a refund reserved since before `olderThan` (held after a lost answer, or left by a stop),
   * by when the newest refund was reserved (`refund_reserved_at`), never by the row's last change (a confirmation
   * or webhook about the payment meanwhile would put its settling off for ever); `limit` at a time in id order
   * after `afterId`: one the gateway cannot settle stays as it was, so a run pages past it rather than meeting it
   * again.
   */
  heldSince(
    olderThan: Date,
    limit: number,
    manager: EntityManager,
    afterId?: string,
  ): Promise<PaymentTransaction[]> {
    return manager.query<PaymentTransaction[]>(
      `SELECT * FROM payment_transactions
        WHERE refund_pending_cents > 0 AND refund_reserved_at < $1 AND ($3::uuid IS NULL OR id > $3::uuid)
        ORDER BY id LIMIT $2`,
      [olderThan, limit, afterId ?? null],
    );
  }

  /**
   * Settles a payment's whole reservation once the gateway said what it made: `made` refunded, the rest
   * given back. Only if the row is as it was read (no refund reserved or settled since); else undefined.
   */
  async settleHeld(
    read: Pick<PaymentTransaction, 'id' | 'refunded_cents' | 'refund_pending_cents'>,
    made: number,
    manager: EntityManager,
  ): Promise<PaymentTransaction | undefined> {
    const result = await manager.query<[PaymentTransaction[], number]>(
      `UPDATE payment_transactions
          SET refund_pending_cents = 0,
              refunded_cents = refunded_cents + $4,
              metadata = metadata - 'held_refunds',
              status = CASE WHEN $4 = 0 THEN status
                            WHEN refunded_cents + $4 >= amount_cents THEN 'refunded'
                            ELSE 'partially_refunded' END,
              updated_at = now()
        WHERE id = $1 AND refunded_cents = $2 AND refund_pending_cents = $3
        RETURNING *`,
      [read.id, read.refunded_cents, read.refund_pending_cents, made],
    );
    return result[0][0];
  }
}
