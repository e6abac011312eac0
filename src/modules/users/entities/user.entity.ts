import { Column, Entity, Index, OneToOne, type Relation } from 'typeorm';
import type { Role } from '#app/common/auth/roles.js';
import { TimestampedEntity } from '#app/infra/database/columns.js';
import { UserProfile } from './user-profile.entity.js';

@Entity('users')
// Users are per site; e-mail compared without case (DESIGN §3).
@Index('uq_users_site_email', ['site_id', 'email_normalized'], { unique: true })
@Index('ix_users_site_id', ['site_id', 'id'])
export class User extends TimestampedEntity {
  @Column({ type: 'varchar', length: 64 })
  site_id!: string;

  @Column({ type: 'varchar', length: 254 })
  email!: string;

  /** The address as compared (`normalizedEmail`: lower case, NFC), a column so the unique index needs no expression. */
  @Column({ type: 'varchar', length: 254 })
  email_normalized!: string;

  @Column({ type: 'varchar', length: 200, nullable: true })
  name!: string | null;

  @Column({ type: 'varchar', length: 20, default: 'user' })
  role!: Role;

  /** Null for accounts made without a password (guest purchase, website form) until one is set. */
  @Column({ type: 'varchar', length: 255, nullable: true, select: false })
  password_hash!: string | null;

  @Column({ type: 'varchar', length: 40, default: 'register' })
  signup_source!: string;

  @Column({ type: 'timestamptz', nullable: true })
  email_verified_at!: Date | null;

  @Column({ type: 'boolean', default: false })
  has_consented!: boolean;

  @Column({ type: 'boolean', default: false })
  data_processing_consent!: boolean;

  @Column({ type: 'boolean', default: false })
  marketing_consent!: boolean;

  @Column({ type: 'varchar', length: 40, nullable: true })
  consent_version!: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  consent_given_at!: Date | null;

  /** When the 18+ declaration was made at registration (responsible play, DESIGN §6). */
  @Column({ type: 'timestamptz', nullable: true })
  age_confirmed_at!: Date | null;

  @Column({ type: 'date', nullable: true })
  date_of_birth!: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  last_login_at!: Date | null;

  @Column({ type: 'integer', default: 0 })
  failed_login_attempts!: number;

  /** The last failed password login: failures older than the lockout window no longer count (`recordFailure`). */
  @Column({ type: 'timestamptz', nullable: true, select: false })
  last_failed_login_at!: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  account_locked_until!: Date | null;

  /**
   * When every session of the user was ended (a password set or reset): access tokens issued before it stop
   * working at once (`issuedBeforeSessionsEnded`), not at their expiry.
   */
  @Column({ type: 'timestamptz', nullable: true })
  sessions_valid_from!: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  deleted_at!: Date | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  deletion_reason!: string | null;

  @OneToOne(() => UserProfile, (profile) => profile.user)
  profile?: Relation<UserProfile>;
}
