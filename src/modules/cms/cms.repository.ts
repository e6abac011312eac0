import { Injectable } from '@nestjs/common';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { CmsSubmission } from './entities/cms-submission.entity.js';

@Injectable()
export class CmsRepository {
  constructor(private readonly tx: TransactionRunner) {}

  /**
   * Claims a submission for processing: its row, once per site and `payload.id` (a concurrent claim of
   * the same one waits on the unique index, then finds it taken). Null when it was already there.
   */
  async claim(
    row: Pick<CmsSubmission, 'site_id' | 'submission_id' | 'source' | 'form_name' | 'payload'>,
  ): Promise<string | null> {
    const result = await this.tx.manager
      .getRepository(CmsSubmission)
      .createQueryBuilder()
      .insert()
      .values(row as QueryDeepPartialEntity<CmsSubmission>)
      .orIgnore()
      .returning(['id'])
      .execute();
    return (result.raw as Array<{ id: string }>)[0]?.id ?? null;
  }

  find(siteId: string, submissionId: string): Promise<CmsSubmission | null> {
    return this.tx.repo(CmsSubmission).findOne({ where: { site_id: siteId, submission_id: submissionId } });
  }

  /**
   * Erasure: the fields of the user's submissions (`payload.data`) are emptied; each keeps its id, so a resend is
   * still recognised. Answers the submissions' site and id (their keys in the webhook inbox).
   */
  async forgetFieldsOf(userId: string): Promise<Array<{ site_id: string; submission_id: string }>> {
    return this.tx.query<{ site_id: string; submission_id: string }>(
      `UPDATE cms_submissions SET payload = jsonb_set(payload, '{payload,data}', '{}'::jsonb, false)
        WHERE user_id = $1
        RETURNING site_id, submission_id`,
      [userId],
    );
  }

  async record(
    id: string,
    changes: Pick<CmsSubmission, 'user_id' | 'user_created' | 'actions'>,
  ): Promise<void> {
    await this.tx.repo(CmsSubmission).update({ id }, changes);
  }
}
