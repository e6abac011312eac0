import { Column, Entity, Index, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { BaseEntity } from '#app/infra/database/columns.js';
import { User } from '#app/modules/users/entities/user.entity.js';

export const ONE_TIME_PURPOSES = ['password_reset', 'password_set', 'magic_link'] as const;
export type OneTimePurpose = (typeof ONE_TIME_PURPOSES)[number];

/** Reset, set and magic-link tokens: 32 random bytes, stored only as a hash, single use, short-lived. */
@Entity('one_time_tokens')
@Index('ix_one_time_tokens_user', ['user_id'])
export class OneTimeToken extends BaseEntity {
  @Column({ type: 'uuid' }) user_id!: string;
  @ManyToOne(() => User, { onDelete: 'CASCADE' }) @JoinColumn({ name: 'user_id' }) user?: Relation<User>;
  @Column({ type: 'varchar', length: 20 }) purpose!: OneTimePurpose;
  @Index({ unique: true })
  @Column({ type: 'varchar', length: 64 })
  token_hash!: string;
  @Column({ type: 'timestamptz' }) expires_at!: Date;
  @Column({ type: 'timestamptz', nullable: true }) used_at!: Date | null;
}
