import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A claimed `Idempotency-Key` and, once the request finished, the answer to replay (DESIGN §6).
 * Rows past `expires_at` count as absent and are purged by the `idempotency.cleanup` job.
 */
@Entity('idempotency_keys')
@Index('ix_idempotency_keys_expires_at', ['expires_at'])
@Check('ck_idempotency_keys_state', `"state" IN ('in_progress', 'completed')`)
export class IdempotencyKey {
  /** Method, route pattern and caller: `POST /admin/rewards/adjust user:<id>` (or `anon`). */
  @PrimaryColumn({ type: 'text' }) scope!: string;
  @PrimaryColumn({ type: 'text' }) key!: string;
  /** sha256 of the canonical JSON of path, query and body. */
  @Column({ type: 'varchar', length: 64 }) request_hash!: string;
  @Column({ type: 'varchar', length: 20 }) state!: 'in_progress' | 'completed';
  /** Random per claim: only the request that claimed the key stores or releases it. */
  @Column({ type: 'uuid' }) owner!: string;
  @Column({ type: 'integer', nullable: true }) response_status!: number | null;
  /** `json`, not `jsonb`: the stored text keeps the first answer's key order, so a replay is byte-identical. */
  @Column({ type: 'json', nullable: true }) response_body!: unknown;
  @Column({ type: 'jsonb', nullable: true }) response_headers!: Record<string, string> | null;
  @CreateDateColumn({ type: 'timestamptz' }) created_at!: Date;
  @Column({ type: 'timestamptz' }) expires_at!: Date;
}
