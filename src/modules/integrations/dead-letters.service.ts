import { Injectable } from '@nestjs/common';
import { AppException } from '#app/common/errors/app.exception.js';
import { JobQueue } from '#app/infra/jobs/job-queue.service.js';
import type { JobMap } from '#app/infra/jobs/job.types.js';
import type { DeadLetterDto } from './dto/dead-letter.dto.js';
import { type DeadLetterRow, IntegrationsRepository } from './integrations.repository.js';

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The one place a dead letter becomes an answer (the payload's personal data stays out). */
function toDto(row: DeadLetterRow): DeadLetterDto {
  const output = row.output as { message?: unknown } | null;
  return {
    id: row.id,
    kind: text(row.data.kind) ?? 'unknown',
    site_id: text(row.data.site_id) ?? '',
    user_id: text(row.data.user_id) ?? '',
    event: text(row.data.event),
    attempts: row.retry_count + 1,
    last_error: text(output?.message),
    created_at: new Date(row.created_on).toISOString(),
    failed_at: row.completed_on ? new Date(row.completed_on).toISOString() : null,
  };
}

/** Admins see a site's dead letters and send one again (a new job; the provider drops repeats). */
@Injectable()
export class DeadLettersService {
  constructor(
    private readonly repo: IntegrationsRepository,
    private readonly jobs: JobQueue,
  ) {}

  async list(siteId: string, limit: number, cursor?: string): Promise<DeadLetterDto[]> {
    return (await this.repo.deadLetters(siteId, limit, cursor)).map(toDto);
  }

  async replay(siteId: string, isSuperadmin: boolean, id: string): Promise<DeadLetterDto> {
    const row = await this.repo.deadLetter(id);
    if (!row || (row.data.site_id !== siteId && !isSuperadmin)) throw AppException.notFound('Dead letter');
    await this.jobs.retry('integrations.deliver', id, row.data as unknown as JobMap['integrations.deliver']);
    return toDto(row);
  }
}
