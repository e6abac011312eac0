import { Check, Column, Entity, Index, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { BaseEntity } from '#app/infra/database/columns.js';
import { User } from '#app/modules/users/entities/user.entity.js';
import type { TransactionType } from '../rewards.rules.js';

/**
 * The points ledger (spec: Point transaction): append-only, one row per change of a balance. A trigger
 * refuses UPDATE and DELETE (migration AddPointsLedger); corrections are new rows.
 */
@Entity('point_transactions')
@Index('ix_point_transactions_user_created', ['user_id', 'created_at', 'id'])
@Index('ix_point_transactions_payment', ['payment_transaction_id'])
// A payment earns points once, whichever of webhook, confirmation or reconciliation fulfils it first.
@Index('uq_point_transactions_earn_per_payment', ['payment_transaction_id'], {
  unique: true,
  where: `"transaction_type" = 'earn' AND "payment_transaction_id" IS NOT NULL`,
})
@Check(
  'ck_point_transactions_type',
  `"transaction_type" IN ('earn', 'spend', 'refund', 'reversal', 'adjustment', 'bonus')`,
)
// Credits are positive, debits negative; a reversal of points already spent records 0 and its shortfall.
@Check(
  'ck_point_transactions_sign',
  `("transaction_type" IN ('earn', 'refund', 'bonus') AND "amount" > 0)
   OR ("transaction_type" = 'spend' AND "amount" < 0)
   OR ("transaction_type" = 'reversal' AND "amount" <= 0)
   OR ("transaction_type" = 'adjustment' AND "amount" <> 0)`,
)
export class PointTransaction extends BaseEntity {
  @Column({ type: 'varchar', length: 64 }) site_id!: string;
  @Column({ type: 'uuid' }) user_id!: string;
  @ManyToOne(() => User, { onDelete: 'CASCADE' }) @JoinColumn({ name: 'user_id' }) user?: Relation<User>;
  /** The payment that earned (or lost) these points; no foreign key until the payments table exists. */
  @Column({ type: 'uuid', nullable: true }) payment_transaction_id!: string | null;
  @Column({ type: 'varchar', length: 500 }) reason!: string;
  @Column({ type: 'varchar', length: 20 }) transaction_type!: TransactionType;
  /** The admin who made an adjustment; null for the system's own entries. */
  @Column({ type: 'uuid', nullable: true }) created_by!: string | null;
  @Column({ type: 'integer' }) amount!: number;
  @Column({ type: 'varchar', length: 64, nullable: true }) ip_address!: string | null;
  @Column({ type: 'varchar', length: 500, nullable: true }) user_agent!: string | null;
  /** Internal details (what a spend bought, a reversal's due and shortfall); not part of the answer. */
  @Column({ type: 'jsonb', default: () => "'{}'" }) metadata!: Record<string, unknown>;
}
