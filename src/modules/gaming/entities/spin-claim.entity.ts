import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  type Relation,
} from 'typeorm';
import { User } from '#app/modules/users/entities/user.entity.js';

/**
 * A spin token that has been claimed. Both of its rules are decided by the database, never by a read
 * first: the primary key spends each token (`jti`) once; the partial unique index gives each user one
 * spin reward (a zero-credit result wins nothing, so it takes no reward).
 */
@Entity('spin_claims')
@Index('ux_spin_claims_reward', ['site_id', 'user_id'], { unique: true, where: '"credits" > 0' })
export class SpinClaim {
  @PrimaryColumn({ type: 'uuid' }) jti!: string;
  @Column({ type: 'varchar', length: 64 }) site_id!: string;
  /** Null once the user is deleted: the token stays spent. */
  @Column({ type: 'uuid', nullable: true }) user_id!: string | null;
  @ManyToOne(() => User, { onDelete: 'SET NULL' }) @JoinColumn({ name: 'user_id' }) user?: Relation<User>;
  @Column({ type: 'integer' }) segment_id!: number;
  @Column({ type: 'integer' }) credits!: number;
  @CreateDateColumn({ type: 'timestamptz' }) claimed_at!: Date;
}
