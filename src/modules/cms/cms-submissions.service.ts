import { Injectable } from '@nestjs/common';
import { AppException } from '#app/common/errors/app.exception.js';
import { NO_REQUEST } from '#app/common/http/request-meta.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { TTL } from '#app/modules/auth/auth.rules.js';
import { PasswordFlowsService } from '#app/modules/auth/password-flows.service.js';
import { IntegrationsService } from '#app/modules/integrations/integrations.service.js';
import { MailService } from '#app/modules/mail/mail.service.js';
import { SitesService } from '#app/modules/sites/sites.service.js';
import { AccountsService } from '#app/modules/users/accounts.service.js';
import { ActivityLogService } from '#app/modules/users/activity-log.service.js';
import type { ReplaySubmissionDto, SubmissionResultDto } from './dto/cms.dto.js';
import { CmsRepository } from './cms.repository.js';
import { readForm } from './cms.rules.js';

/**
 * The one processing path of a website form's submission (DESIGN §7), live (from the inbox job) or
 * replayed (endpoint 20): in one transaction, claim it once per site and `payload.id`, create or update
 * the user and profile from the form, and for a new user queue `cms_new_user` with a password-set link.
 */
@Injectable()
export class CmsSubmissionsService {
  constructor(
    private readonly cms: CmsRepository,
    private readonly accounts: AccountsService,
    private readonly flows: PasswordFlowsService,
    private readonly mail: MailService,
    private readonly activity: ActivityLogService,
    private readonly sites: SitesService,
    private readonly tx: TransactionRunner,
    private readonly integrations: IntegrationsService,
  ) {}

  async process(
    siteId: string,
    event: ReplaySubmissionDto,
    source: 'webhook' | 'replay',
  ): Promise<SubmissionResultDto> {
    try {
      return await this.processOnce(siteId, event, source);
    } catch (error) {
      // Another submission for the same new address made the account while this one ran (the unique index
      // decided, and this transaction, its claim included, was rolled back): once more, finding that account.
      if (error instanceof AppException && error.code === 'EMAIL_TAKEN' && !this.tx.active)
        return this.processOnce(siteId, event, source);
      throw error;
    }
  }

  private async processOnce(
    siteId: string,
    event: ReplaySubmissionDto,
    source: 'webhook' | 'replay',
  ): Promise<SubmissionResultDto> {
    await this.sites.requireSite(siteId);
    const { payload } = event;
    const person = readForm(payload.data, payload.schema ?? []);
    if (!person.email)
      throw AppException.unprocessable(
        'SUBMISSION_WITHOUT_EMAIL',
        'The submission has no e-mail address to make a member of.',
      );
    const email = person.email;
    return this.tx.run(async (manager) => {
      const claimed = await this.cms.claim({
        site_id: siteId,
        submission_id: payload.id,
        source,
        form_name: payload.name ?? null,
        payload: event as unknown as Record<string, unknown>,
      });
      if (!claimed) {
        const earlier = await this.cms.find(siteId, payload.id);
        return {
          submission_id: payload.id,
          user_id: earlier?.user_id ?? null,
          user_created: false,
          duplicate: true,
          actions: [],
        };
      }
      const actions: string[] = [];
      let user = await this.accounts.findByEmail(siteId, email, manager);
      const created = !user;
      if (!user) {
        user = await this.accounts.create(
          {
            site_id: siteId,
            email,
            name: person.name,
            role: 'user',
            signup_source: 'cms',
            password_hash: null,
            // When the form asks, its answer is the member's choice, recorded with its time (DESIGN §3), as
            // registration records it.
            ...(person.accepts_marketing !== undefined
              ? { marketing_consent: person.accepts_marketing, consent_given_at: new Date() }
              : {}),
          },
          manager,
        );
        actions.push('user_created');
      } else actions.push('user_found');
      // A staff account is never written by a form: anyone can post one naming an admin's or the superadmin's
      // address, and a site's admin can replay one (as only a superadmin may delete such an account).
      if (user.role !== 'user') {
        actions.push('staff_account_left_alone');
        await this.cms.record(claimed, { user_id: null, user_created: false, actions });
        return { submission_id: payload.id, user_id: null, user_created: false, duplicate: false, actions };
      }
      const profile = {
        ...person.profile,
        ...(person.accepts_marketing !== undefined ? { accepts_marketing: person.accepts_marketing } : {}),
      };
      if (Object.keys(profile).length) {
        await this.accounts.updateProfile(user.id, profile, manager);
        actions.push('profile_updated');
      }
      if (created) {
        const link = await this.flows.passwordSetLink({ id: user.id, site_id: siteId }, manager);
        await this.mail.send(
          {
            kind: 'cms_new_user',
            siteId,
            to: email,
            userId: user.id,
            variables: {
              link,
              expires_minutes: TTL.setMinutes,
              first_name: person.profile.first_name ?? null,
            },
          },
          manager,
        );
        actions.push('mail_cms_new_user');
        await this.integrations.signedUp(siteId, user.id, 'cms');
      } else await this.integrations.contactChanged(siteId, user.id);
      actions.push('contact_list_add');
      this.activity.recordLater(
        {
          userId: user.id,
          siteId,
          type: created ? 'register' : 'profile_update',
          description: `Website form "${payload.name ?? payload.formId ?? 'form'}" (${source})`,
          resourceType: 'cms_submission',
          resourceId: claimed,
          ...(created && person.accepts_marketing !== undefined
            ? { metadata: { marketing_consent: person.accepts_marketing } }
            : {}),
        },
        NO_REQUEST,
      );
      await this.cms.record(claimed, { user_id: user.id, user_created: created, actions });
      return {
        submission_id: payload.id,
        user_id: user.id,
        user_created: created,
        duplicate: false,
        actions,
      };
    });
  }
}
