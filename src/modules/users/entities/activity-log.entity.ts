import { Column, Entity, Index, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { BaseEntity } from '#app/infra/database/columns.js';
import { User } from './user.entity.js';

/** Append-only record of security and account events (DESIGN §3). */
@Entity('activity_logs')
@Index('ix_activity_logs_user_created', ['user_id', 'created_at'])
export class ActivityLog extends BaseEntity {
  @Column({ type: 'uuid', nullable: true }) user_id!: string | null;
  @ManyToOne(() => User, { onDelete: 'SET NULL' }) @JoinColumn({ name: 'user_id' }) user?: Relation<User>;
  @Column({ type: 'varchar', length: 64, nullable: true }) site_id!: string | null;
  @Column({ type: 'varchar', length: 60 }) activity_type!: string;
  @Column({ type: 'varchar', length: 500 }) description!: string;
  @Column({ type: 'varchar', length: 20, default: 'info' }) severity!: string;
  @Column({ type: 'varchar', length: 64, nullable: true }) ip_address!: string | null;
  @Column({ type: 'varchar', length: 500, nullable: true }) user_agent!: string | null;
  @Column({ type: 'varchar', length: 128, nullable: true }) request_id!: string | null;
  @Column({ type: 'varchar', length: 128, nullable: true }) session_id!: string | null;
  /** Who made the request, when signed in: staff acting on a user's records are not that user. */
  @Column({ type: 'uuid', nullable: true }) actor_id!: string | null;
  @Column({ type: 'varchar', length: 60, nullable: true }) resource_type!: string | null;
  @Column({ type: 'varchar', length: 128, nullable: true }) resource_id!: string | null;
  @Column({ type: 'jsonb', default: () => "'{}'" }) metadata!: Record<string, unknown>;
}
