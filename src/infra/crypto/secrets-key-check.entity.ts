import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * One row per database: a known text encrypted under the SECRETS_KEY the first instance started with.
 * Every start decrypts it, so a wrong key stops the service at once instead of failing on first use.
 */
@Entity('secrets_key_checks')
export class SecretsKeyCheck {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  name!: string;

  @Column({ type: 'text' })
  check_value!: string;

  @CreateDateColumn({ type: 'timestamptz' })
  created_at!: Date;
}
