import { Injectable } from '@nestjs/common';
import { In, type Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { MerchOrderItem } from './entities/merch-order-item.entity.js';
import { MerchOrder, type StatusStage } from './entities/merch-order.entity.js';
import { MerchProduct } from './entities/merch-product.entity.js';

export type NewProduct = Omit<MerchProduct, 'id' | 'created_at' | 'updated_at'>;
export type NewOrder = Omit<MerchOrder, 'id' | 'created_at' | 'updated_at'>;
export type NewItem = Omit<
  MerchOrderItem,
  'id' | 'created_at' | 'updated_at' | 'merch_order_id' | 'position'
>;

/** An order not yet at the provider: awaiting payment (or its sending), with no provider id. */
const UNSENT = `id = :id AND status_stage = 'awaiting_payment' AND fulfilment_order_id IS NULL`;

/** Every merch query (products, orders, their items), through the ambient transaction when there is one. */
@Injectable()
export class MerchRepository {
  constructor(private readonly tx: TransactionRunner) {}

  private get products(): Repository<MerchProduct> {
    return this.tx.repo(MerchProduct);
  }

  private get orders(): Repository<MerchOrder> {
    return this.tx.repo(MerchOrder);
  }

  private get items(): Repository<MerchOrderItem> {
    return this.tx.repo(MerchOrderItem);
  }

  insertProduct(product: NewProduct): Promise<MerchProduct> {
    return this.products.save(this.products.create(product));
  }

  findProduct(id: string): Promise<MerchProduct | null> {
    return this.products.findOne({ where: { id } });
  }

  async updateProduct(id: string, changes: Partial<MerchProduct>): Promise<void> {
    if (Object.keys(changes).length)
      await this.products.update({ id }, changes as QueryDeepPartialEntity<MerchProduct>);
  }

  /** A site's products, newest first; `activeOnly` for the public list. Keyset on (created_at, id). */
  listProducts(siteId: string, activeOnly: boolean, limit: number, cursor?: string): Promise<MerchProduct[]> {
    const qb = this.products
      .createQueryBuilder('p')
      .where('p.site_id = :siteId', { siteId })
      .orderBy('p.created_at', 'DESC')
      .addOrderBy('p.id', 'DESC')
      .take(limit);
    if (activeOnly) qb.andWhere('p.active = true');
    if (cursor)
      qb.andWhere(
        '(p.created_at, p.id) < (SELECT c.created_at, c.id FROM merch_products c WHERE c.id = :cursor)',
        {
          cursor,
        },
      );
    return qb.getMany();
  }

  /** The site's products among `ids` (others' are simply absent). */
  productsOf(siteId: string, ids: string[]): Promise<MerchProduct[]> {
    return this.products.find({ where: { site_id: siteId, id: In(ids) } });
  }

  /** The order and its lines, in one round trip each (items by one statement, ids assigned by the database). */
  async insertOrder(
    order: NewOrder,
    items: NewItem[],
  ): Promise<{ order: MerchOrder; items: MerchOrderItem[] }> {
    const saved = await this.orders.save(this.orders.create(order));
    const lines = await this.items.save(
      items.map((item, position) => this.items.create({ ...item, merch_order_id: saved.id, position })),
    );
    return { order: saved, items: lines };
  }

  async updateOrder(id: string, changes: Partial<MerchOrder>): Promise<void> {
    await this.orders.update({ id }, changes as QueryDeepPartialEntity<MerchOrder>);
  }

  /**
   * Moves an order only from the stages named (a compare-and-set: of two workers that read the same
   * stage, one moves it). True when it moved.
   */
  async moveOrder(id: string, from: StatusStage[], changes: Partial<MerchOrder>): Promise<boolean> {
    const result = await this.orders.update(
      { id, status_stage: In(from) },
      changes as QueryDeepPartialEntity<MerchOrder>,
    );
    return (result.affected ?? 0) > 0;
  }

  /**
   * Like `moveOrder`, with `patch` merged into the order's metadata by the statement itself (another writer may
   * have added to it since it was read: a refund's note). Answers the metadata as written, or null when the order
   * had moved.
   */
  async moveOrderNoting(
    id: string,
    from: StatusStage[],
    changes: Partial<MerchOrder>,
    patch: Record<string, unknown>,
  ): Promise<Record<string, unknown> | null> {
    const result = await this.orders
      .createQueryBuilder()
      .update()
      .set({
        ...(changes as QueryDeepPartialEntity<MerchOrder>),
        metadata: () => 'metadata || CAST(:patch AS jsonb)',
      })
      .where({ id, status_stage: In(from) })
      .setParameter('patch', JSON.stringify(patch))
      .returning(['metadata'])
      .execute();
    const rows = result.raw as Array<{ metadata: Record<string, unknown> }>;
    return rows[0]?.metadata ?? null;
  }

  /**
   * Notes on an order not yet sent (awaiting payment, no provider id) that an attempt to send it starts now: from
   * here the provider may hold it. Answers the metadata as written (with any refund's note), or null when the order
   * is no longer one to send.
   */
  markSending(id: string, at: Date): Promise<Record<string, unknown> | null> {
    return this.unsentNoting(id, { sending_at: at.toISOString() });
  }

  /** Takes back an attempt's `sending_at` once the attempt provably never reached the provider. */
  async clearSending(id: string): Promise<void> {
    await this.orders
      .createQueryBuilder()
      .update()
      .set({ metadata: () => `metadata - 'sending_at'` })
      .where(UNSENT, { id })
      .execute();
  }

  /** Notes a whole refund on an order not yet sent; null when it is no longer unsent (the provider has it). */
  noteRefundedWhole(id: string, at: Date): Promise<Record<string, unknown> | null> {
    return this.unsentNoting(id, { refunded_whole_at: at.toISOString() });
  }

  /**
   * Cancels an order that no attempt to send has started on (awaiting payment, no provider id, no `sending_at`):
   * the provider cannot hold it. False when one has started, or the order moved.
   */
  async cancelNeverSent(id: string, details: Record<string, unknown>): Promise<boolean> {
    const result = await this.orders
      .createQueryBuilder()
      .update()
      .set({ status_stage: 'cancelled', status_details: details } as QueryDeepPartialEntity<MerchOrder>)
      .where(UNSENT, { id })
      .andWhere(`metadata->>'sending_at' IS NULL`)
      .execute();
    return (result.affected ?? 0) > 0;
  }

  private async unsentNoting(
    id: string,
    patch: Record<string, unknown>,
  ): Promise<Record<string, unknown> | null> {
    const result = await this.orders
      .createQueryBuilder()
      .update()
      .set({ metadata: () => 'metadata || CAST(:patch AS jsonb)' })
      .where(UNSENT, { id })
      .setParameter('patch', JSON.stringify(patch))
      .returning(['metadata'])
      .execute();
    const rows = result.raw as Array<{ metadata: Record<string, unknown> }>;
    return rows[0]?.metadata ?? null;
  }

  findOrder(id: string): Promise<MerchOrder | null> {
    return this.orders.findOne({ where: { id } });
  }

  findByPayment(paymentId: string): Promise<MerchOrder | null> {
    return this.orders.findOne({ where: { payment_id: paymentId } });
  }

  findByToken(token: string): Promise<MerchOrder | null> {
    return this.orders.findOne({ where: { callback_token: token } });
  }

  itemsOf(orderId: string): Promise<MerchOrderItem[]> {
    return this.items.find({ where: { merch_order_id: orderId }, order: { position: 'ASC', id: 'ASC' } });
  }

  /**
   * Endpoint 10: a page of a site's orders, newest first, with every order's items — two statements
   * whatever the page size (the page, then the items of all its orders at once).
   */
  async listOrders(
    siteId: string,
    stage: StatusStage | undefined,
    limit: number,
    cursor?: string,
  ): Promise<Array<{ order: MerchOrder; items: MerchOrderItem[] }>> {
    const qb = this.orders
      .createQueryBuilder('o')
      .where('o.site_id = :siteId', { siteId })
      .orderBy('o.created_at', 'DESC')
      .addOrderBy('o.id', 'DESC')
      .limit(limit);
    if (stage) qb.andWhere('o.status_stage = :stage', { stage });
    if (cursor)
      qb.andWhere(
        '(o.created_at, o.id) < (SELECT c.created_at, c.id FROM merch_orders c WHERE c.id = :cursor)',
        {
          cursor,
        },
      );
    const orders = await qb.getMany();
    if (!orders.length) return [];
    const items = await this.items.find({
      where: { merch_order_id: In(orders.map((o) => o.id)) },
      order: { position: 'ASC', id: 'ASC' },
    });
    const byOrder = new Map<string, MerchOrderItem[]>();
    for (const item of items) {
      const list = byOrder.get(item.merch_order_id) ?? [];
      list.push(item);
      byOrder.set(item.merch_order_id, list);
    }
    return orders.map((order) => ({ order, items: byOrder.get(order.id) ?? [] }));
  }
}
