import { Column, Entity, JoinColumn, OneToOne, type Relation } from 'typeorm';
import { TimestampedEntity } from '#app/infra/database/columns.js';
import { User } from './user.entity.js';

export const PROFILE_TEXT_FIELDS = [
  'first_name',
  'last_name',
  'title',
  'organization',
  'phone_number',
  'address',
  'address_2',
  'city',
  'state_region',
  'zip_code',
  'country',
  'latitude',
  'longitude',
  'locale',
  'timezone',
  'marketing_id',
] as const;

@Entity('user_profiles')
export class UserProfile extends TimestampedEntity {
  @Column({ type: 'uuid', unique: true })
  user_id!: string;

  @OneToOne(() => User, (user) => user.profile, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;

  @Column({ type: 'varchar', length: 64 })
  site_id!: string;

  @Column({ type: 'varchar', length: 100, nullable: true }) first_name!: string | null;
  @Column({ type: 'varchar', length: 100, nullable: true }) last_name!: string | null;
  @Column({ type: 'varchar', length: 50, nullable: true }) title!: string | null;
  @Column({ type: 'varchar', length: 200, nullable: true }) organization!: string | null;
  @Column({ type: 'varchar', length: 40, nullable: true }) phone_number!: string | null;
  @Column({ type: 'varchar', length: 200, nullable: true }) address!: string | null;
  @Column({ type: 'varchar', length: 200, nullable: true }) address_2!: string | null;
  @Column({ type: 'varchar', length: 100, nullable: true }) city!: string | null;
  @Column({ type: 'varchar', length: 100, nullable: true }) state_region!: string | null;
  @Column({ type: 'varchar', length: 20, nullable: true }) zip_code!: string | null;
  @Column({ type: 'varchar', length: 100, nullable: true }) country!: string | null;
  @Column({ type: 'varchar', length: 32, nullable: true }) latitude!: string | null;
  @Column({ type: 'varchar', length: 32, nullable: true }) longitude!: string | null;
  @Column({ type: 'varchar', length: 20, nullable: true }) locale!: string | null;
  @Column({ type: 'varchar', length: 64, nullable: true }) timezone!: string | null;
  @Column({ type: 'varchar', length: 200, nullable: true }) marketing_id!: string | null;
  @Column({ type: 'boolean', default: false }) accepts_marketing!: boolean;
}
