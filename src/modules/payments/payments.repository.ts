import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type EntityManager, In, IsNull, LessThan, type Repository } from 'typeorm';
import { PaymentTransaction, type PaymentStatus } from './entities/payment-transaction.entity.js';

export type NewPayment = Omit<
  PaymentTransaction,
  | 'id'
  | 'created_at'
  | 'updated_at'
  | 'user'
  | 'refunded_cents'
  | 'refund_pending_cents'
  | 'fulfilled_at'
  | 'fulfilment'
> & { id?: string };

@Injectable()
export class PaymentsRepository {
  constructor(
    @InjectRepository(PaymentTransaction) private readonly payments: Repository<PaymentTransaction>,
  ) {}

  private repo(manager?: EntityManager): Repository<PaymentTransaction> {
    return manager ? manager.getRepository(PaymentTransaction) : this.payments;
  }

  async create(row: NewPayment, manager: EntityManager): Promise<PaymentTransaction> {
    const repo = this.repo(manager);
    return repo.save(repo.create(row));
  }

  findById(id: string, manager?: EntityManager): Promise<PaymentTransaction | null> {
    return this.repo(manager).findOne({ where: { id } });
  }

  findByCheckout(
    gateway: string,
    checkoutId: string,
    manager?: EntityManager,
  ): Promise<PaymentTransaction | null> {
    return this.repo(manager).findOne({
      where: { gateway: gateway as PaymentTransaction['gateway'], checkout_id: checkoutId },
    });
  }

  /** The payment row, locked: webhook, confirmation and reconciliation of one payment take turns. */
  lock(id: string, manager: EntityManager): Promise<PaymentTransaction | null> {
    return manager
      .getRepository(PaymentTransaction)
      .createQueryBuilder('p')
      .where('p.id = :id', { id })
      .setLock('pessimistic_write')
      .getOne();
  }

  async update(id: string, changes: Partial<PaymentTransaction>, manager?: EntityManager): Promise<void> {
    await this.repo(manager).update({ id }, changes as never);
  }

  /** Marks the payment fulfilled unless something already did: the exactly-once gate. */
  async claimFulfilment(id: string, manager: EntityManager): Promise<boolean> {
    const result = await manager
      .getRepository(PaymentTransaction)
      .update({ id, fulfilled_at: IsNull() }, { fulfilled_at: new Date() });
    return (result.affected ?? 0) === 1;
  }

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

  /** Open payments no event has settled, oldest first (reconciliation). */
  pendingBefore(cutoff: Date, limit: number): Promise<PaymentTransaction[]> {
    return this.payments.find({
      where: { status: In(['pending', 'review']), created_at: LessThan(cutoff) },
      order: { created_at: 'ASC' },
      take: limit,
    });
  }

  list(
    siteId: string,
    status: PaymentStatus | undefined,
    limit: number,
    cursor?: string,
  ): Promise<PaymentTransaction[]> {
    const qb = this.payments
      .createQueryBuilder('p')
      .where('p.site_id = :siteId', { siteId })
      .orderBy('p.created_at', 'DESC')
      .addOrderBy('p.id', 'DESC')
      .take(limit);
    if (status) qb.andWhere('p.status = :status', { status });
    if (cursor)
      qb.andWhere(
        '(p.created_at, p.id) < (SELECT created_at, id FROM payment_transactions WHERE id = :cursor)',
        {
          cursor,
        },
      );
    return qb.getMany();
  }

  ofUsers(userIds: string[], perUser = 50): Promise<PaymentTransaction[]> {
    if (!userIds.length) return Promise.resolve([]);
    return this.payments.find({
      where: { user_id: In(userIds) },
      order: { created_at: 'DESC' },
      take: perUser * userIds.length,
    });
  }
}
