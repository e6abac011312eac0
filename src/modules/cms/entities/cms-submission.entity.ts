import { Column, Entity, Index } from 'typeorm';
import { TimestampedEntity } from '#app/infra/database/columns.js';

/**
 * A website form's submission, once processed (live or replayed): the record that makes processing
 * idempotent on the builder's `payload.id` per site, and says what was done.
 */
@Entity('cms_submissions')
@Index('uq_cms_submissions_site_submission', ['site_id', 'submission_id'], { unique: true })
export class CmsSubmission extends TimestampedEntity {
  @Column({ type: 'varchar', length: 64 })
  site_id!: string;

  /** The builder's `payload.id`. */
  @Column({ type: 'varchar', length: 200 })
  submission_id!: string;

  /** `webhook` or `replay`. */
  @Column({ type: 'varchar', length: 20 })
  source!: string;

  @Column({ type: 'varchar', length: 200, nullable: true })
  form_name!: string | null;

  @Column({ type: 'uuid', nullable: true })
  user_id!: string | null;

  @Column({ type: 'boolean', default: false })
  user_created!: boolean;

  @Column({ type: 'jsonb', default: () => "'[]'" })
  actions!: string[];

  /** The submission as received. */
  @Column({ type: 'jsonb' })
  payload!: Record<string, unknown>;
}
