import { Injectable } from '@nestjs/common';
import { InboxService } from '#app/modules/payments/inbox.service.js';
import { CmsRepository } from './cms.repository.js';
import { CMS_PROVIDER, inboxKey } from './cms.rules.js';

/**
 * What an account's erasure asks of website forms (in the erasure's transaction): the fields a person typed into
 * the forms that made or updated the account, in our submissions and in the webhook inbox's raw copies, are
 * emptied. The submissions stay, with their ids, so a form sent again is still known as sent.
 */
@Injectable()
export class CmsErasureService {
  constructor(
    private readonly cms: CmsRepository,
    private readonly inbox: InboxService,
  ) {}

  async accountErased(userId: string): Promise<void> {
    const forgotten = await this.cms.forgetFieldsOf(userId);
    await this.inbox.forgetPayloadPath(
      CMS_PROVIDER,
      forgotten.map((s) => inboxKey(s.site_id, s.submission_id)),
      ['payload', 'data'],
    );
  }
}
