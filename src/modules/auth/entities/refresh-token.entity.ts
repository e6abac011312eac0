import { Column, Entity, Index, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { BaseEntity } from '#app/infra/database/columns.js';
import { User } from '#app/modules/users/entities/user.entity.js';

/**
 * A refresh token, stored only as its SHA-256. Rotation links tokens in a family; presenting a rotated
 * token again revokes the whole family (DESIGN §3).
 */
@Entity('refresh_tokens')
@Index('ix_refresh_tokens_family', ['family_id'])
@Index('ix_refresh_tokens_user', ['user_id'])
export class RefreshToken extends BaseEntity {
  @Column({ type: 'uuid' }) user_id!: string;
  @ManyToOne(() => User, { onDelete: 'CASCADE' }) @JoinColumn({ name: 'user_id' }) user?: Relation<User>;
  @Column({ type: 'uuid' }) family_id!: string;
  @Index({ unique: true })
  @Column({ type: 'varchar', length: 64 })
  token_hash!: string;
  @Column({ type: 'timestamptz' }) expires_at!: Date;
  @Column({ type: 'timestamptz', nullable: true }) rotated_at!: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) revoked_at!: Date | null;
}
