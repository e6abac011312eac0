import { Injectable } from '@nestjs/common';
import { AppException } from '#app/common/errors/app.exception.js';
import { AppConfig } from '#app/config/app-config.js';
import type { OutboxEntryDto, OutboxMessageDto } from './dto/outbox.dto.js';
import { listOutbox, readOutbox } from './outbox.js';

/** The `log` transport's messages, read back for admins (development and review; DESIGN §10). */
@Injectable()
export class OutboxService {
  constructor(private readonly config: AppConfig) {}

  list(siteId: string, limit: number, cursor?: string): Promise<OutboxEntryDto[]> {
    return listOutbox(this.config.dataDir, siteId, limit, cursor);
  }

  async read(siteId: string, id: string): Promise<OutboxMessageDto> {
    const message = await readOutbox(this.config.dataDir, siteId, id);
    if (!message) throw AppException.notFound('Message');
    return message;
  }
}
