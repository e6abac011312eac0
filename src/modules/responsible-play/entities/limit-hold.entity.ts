import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * What a deleted account's self-pause and spend limit leave behind for its address (DESIGN §6 responsible
 * play): a new account of the same address on the same site starts with them, so deleting an account is no
 * quicker a way out of a pause or a limit than the account's own rules allow. The address is kept only as a
 * keyed hash (`address_hash`), and the row only until what it holds has lapsed (`expires_at`).
 */
@Entity('limit_holds')
@Check('ck_limit_holds_limit', `"monthly_spend_limit_cents" IS NULL OR "monthly_spend_limit_cents" >= 0`)
@Check('ck_limit_holds_spent', `"spent_cents" >= 0`)
@Index('ix_limit_holds_expires_at', ['expires_at'])
export class LimitHold {
  @PrimaryColumn({ type: 'varchar', length: 64 }) site_id!: string;
  /** HMAC-SHA256 (hex) of the site and the lower-cased address, under a key derived from SECRETS_KEY. */
  @PrimaryColumn({ type: 'char', length: 64 }) address_hash!: string;
  @Column({ type: 'timestamptz', nullable: true }) paused_until!: Date | null;
  @Column({ type: 'integer', nullable: true }) monthly_spend_limit_cents!: number | null;
  /** Until when the limit (and the month's spend under it) carries over: as long as raising it would take. */
  @Column({ type: 'timestamptz', nullable: true }) limit_until!: Date | null;
  /** The month (`YYYY-MM`) of `spent_cents`: what the deleted account had spent towards its limit. */
  @Column({ type: 'varchar', length: 7 }) month!: string;
  @Column({ type: 'integer', default: 0 }) spent_cents!: number;
  @Column({ type: 'timestamptz' }) expires_at!: Date;
  @CreateDateColumn({ type: 'timestamptz' }) created_at!: Date;
}
