import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { NO_REQUEST } from '#app/common/http/request-meta.js';
import { AppConfig } from '#app/config/app-config.js';
import type { JobMap } from '#app/infra/jobs/job.types.js';
import { JobQueue } from '#app/infra/jobs/job-queue.service.js';
import { siteLinkBase } from '#app/modules/sites/sites.rules.js';
import { SitesService } from '#app/modules/sites/sites.service.js';
import { AccountsService } from '#app/modules/users/accounts.service.js';
import { ActivityLogService } from '#app/modules/users/activity-log.service.js';
import { MailerDelivery } from './mailer-delivery.js';
import { bccFor, mailRouteOf, mailVariables, PURCHASE_KINDS, receiptOnly, senderOf } from './mail.rules.js';
import { renderMail } from './mail.render.js';
import type { MailKind, MailVariables } from './mail.types.js';
import { SmtpDelivery } from './smtp-delivery.js';
import { normalizedEmail } from '#app/common/email-address.js';

export interface MailRequest {
  kind: MailKind;
  siteId: string;
  to: string;
  userId?: string | null;
  /** The kind's variables (templates/templates.ts), plus a raffle's `mailer_email_params` for branding. */
  variables: MailVariables;
  /**
   * A link into a staff account (admin, superadmin). A site's admin chooses the site's mail route (its SMTP
   * server, the outbox it reads): such a link must not pass through it, or a site's admin could sign in as
   * a superadmin. It goes through the service's own transport only.
   */
  staffAccess?: boolean;
}

type MailJob = JobMap['mail.send'];
type JobMeta = { id: string; retryCount: number; retryLimit: number };

/**
 * E-mail leaves the process only as a job: `send()` enqueues inside the caller's transaction, so a mail
 * exists exactly when the change that caused it (a token, an order) commits. The job sends through the
 * site's provider, is retried with back-off, and a final failure is written to the activity log.
 */
@Injectable()
export class MailService implements OnModuleInit {
  private readonly logger = new Logger(MailService.name);

  constructor(
    private readonly jobs: JobQueue,
    private readonly sites: SitesService,
    private readonly smtp: SmtpDelivery,
    private readonly mailer: MailerDelivery,
    private readonly activity: ActivityLogService,
    private readonly config: AppConfig,
    private readonly accounts: AccountsService,
  ) {}

  /** Per kind, whether a queued mail still says something true when it goes (`sendOnlyIf`). */
  private readonly stillTrue = new Map<MailKind, (about: Record<string, string>) => Promise<boolean>>();

  onModuleInit(): void {
    this.jobs.register('mail.send', (data, meta) => this.deliver(data, meta));
  }

  /**
   * Mails of `kind` queued with an `about` go only while `check(about)` holds when they are sent: a mail queued
   * minutes (or, while the site's server fails, a quarter of an hour of retries) before it goes may announce
   * what has changed since (a renewal reminder for a membership cancelled meanwhile). Registered by the feature
   * that knows what the mail is about.
   */
  sendOnlyIf(kind: MailKind, check: (about: Record<string, string>) => Promise<boolean>): void {
    this.stillTrue.set(kind, check);
  }

  async send(request: MailRequest, manager?: EntityManager): Promise<void> {
    const job: MailJob = {
      kind: request.kind,
      site_id: request.siteId,
      to: request.to,
      user_id: request.userId ?? null,
      variables: request.variables,
      ...(request.staffAccess ? { staff_access: true } : {}),
    };
    if (!PURCHASE_KINDS.includes(request.kind) || request.staffAccess) {
      await this.jobs.enqueue('mail.send', job, { manager });
      return;
    }
    // The site's purchase BCC gets its copy in a job of its own: one envelope, one recipient, so a server that
    // refuses the buyer while it takes the copy fails the buyer's job (retried, then recorded) rather than
    // completing it. And a new buyer's purchase mail carries their new account's password-set link, a one-time
    // credential that would let whoever reads that inbox set the buyer's password: the copy is the receipt as
    // an existing member's purchase reads, without the link.
    const bcc = bccFor(request.kind, await this.sites.findBySiteId(request.siteId, manager));
    await this.jobs.enqueue('mail.send', { ...job, without_bcc: true }, { manager });
    // A buyer who is the BCC's own reader (staff trying their site) has the mail already.
    if (bcc && normalizedEmail(bcc) !== normalizedEmail(request.to))
      await this.jobs.enqueue(
        'mail.send',
        {
          kind: 'purchase_existing',
          site_id: request.siteId,
          to: bcc,
          user_id: null,
          copy_of: request.userId ?? null,
          variables: receiptOnly(request.variables),
          without_bcc: true,
        },
        { manager },
      );
  }

  /** The job. Throws on failure so the queue retries; the last failure is recorded first. */
  async deliver(
    data: MailJob,
    meta: JobMeta = { id: 'direct', retryCount: 0, retryLimit: 0 },
  ): Promise<void> {
    // Queued before its account was erased: the address is no longer the account's to write to, and a copy of
    // its mail no longer the site's to keep.
    const account = data.user_id ?? data.copy_of;
    if (account && !(await this.accounts.contactsOf([account])).has(account)) {
      this.logger.log(
        { kind: data.kind, site_id: data.site_id, job_id: meta.id },
        'mail to an erased account dropped',
      );
      return;
    }
    const check = data.about ? this.stillTrue.get(data.kind) : undefined;
    if (check && data.about && !(await check(data.about))) {
      this.logger.log(
        { kind: data.kind, site_id: data.site_id, job_id: meta.id },
        'mail no longer true dropped',
      );
      return;
    }
    try {
      const messageId = await this.dispatch(data);
      this.logger.log({ kind: data.kind, site_id: data.site_id, message_id: messageId }, 'mail sent');
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const final = meta.retryCount >= meta.retryLimit;
      this.logger.warn(
        { kind: data.kind, site_id: data.site_id, job_id: meta.id, final, reason },
        'mail failed',
      );
      if (final)
        await this.recordFailure(data, meta, reason).catch((recordError: unknown) => {
          // The job's own state still shows the failure; never let the record hide the cause.
          this.logger.error({ err: recordError, job_id: meta.id }, 'could not record a failed mail');
        });
      throw error;
    }
  }

  private async dispatch(data: MailJob): Promise<string | null> {
    const site = await this.sites.findBySiteId(data.site_id);
    const links = siteLinkBase(site, data.site_id, this.config);
    const vars = mailVariables(site, data.site_id, data.variables, links, new Date());
    const route = data.staff_access ? 'default' : mailRouteOf(site);
    if (route === 'mailer') {
      if (!site) throw new Error(`site ${data.site_id} is gone`);
      return this.mailer.send(
        site,
        data.kind,
        data.to,
        vars,
        data.without_bcc ? null : bccFor(data.kind, site),
      );
    }
    return this.smtp.send(route, site, {
      kind: data.kind,
      siteId: data.site_id,
      to: data.to,
      sender: senderOf(site, vars, this.config.mailFrom),
      bcc: data.staff_access || data.without_bcc ? null : bccFor(data.kind, site),
      rendered: renderMail(data.kind, vars),
      staffAccess: data.staff_access === true,
    });
  }

  /**
   * Visible, never lost: who, what and why, without the message's links or any secret. The address is named
   * only for a mail to no account (an account's record says whose it is), and taken out of the error (servers
   * quote it in refusals): a record written while the account is being erased keeps no trace of it.
   */
  private async recordFailure(data: MailJob, meta: JobMeta, reason: string): Promise<void> {
    await this.activity.record(
      {
        userId: data.user_id ?? null,
        siteId: data.site_id,
        type: 'mail_failed',
        description: `The ${data.kind} e-mail could not be sent after ${meta.retryCount + 1} attempts`,
        severity: 'warning',
        resourceType: 'mail_job',
        resourceId: meta.id,
        metadata: {
          kind: data.kind,
          ...(data.user_id ? {} : { to: data.to }),
          attempts: meta.retryCount + 1,
          error: reason.replaceAll(data.to, '<recipient>').slice(0, 300),
        },
      },
      NO_REQUEST,
    );
  }
}
