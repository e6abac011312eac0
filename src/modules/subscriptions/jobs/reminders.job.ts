import { Injectable, type OnModuleInit } from '@nestjs/common';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { JobQueue } from '#app/infra/jobs/job-queue.service.js';
import { MailService } from '#app/modules/mail/mail.service.js';
import { SitesService } from '#app/modules/sites/sites.service.js';
import { AccountsService } from '#app/modules/users/accounts.service.js';
import { day, membershipVariables } from '../membership-mail.js';
import { SubscriptionsRepository } from '../subscriptions.repository.js';
import { addDays, reminderDays } from '../subscriptions.rules.js';

/** How far ahead a reminder can be (a site's `reminder_days` is capped there). */
const HORIZON_DAYS = 60;
const BATCH = 500;

/**
 * The renewal reminder before each renewal (hourly, and `POST /admin/jobs/reminders/run`): what will be
 * charged, when, and how to cancel — `reminder_days` before it (7 by default, per site in
 * `additional_settings.subscriptions.reminder_days`), once per renewal — also when runs on two
 * instances overlap: a run claims its batch (`SKIP LOCKED`) and mails only those it marked itself.
 */
@Injectable()
export class RemindersJob implements OnModuleInit {
  constructor(
    private readonly jobs: JobQueue,
    private readonly subs: SubscriptionsRepository,
    private readonly sites: SitesService,
    private readonly accounts: AccountsService,
    private readonly tx: TransactionRunner,
    private readonly mail: MailService,
  ) {}

  onModuleInit(): void {
    // A reminder goes only while what it announces holds: a member who cancels (or is paused, or whose date
    // moves) between the run and the send is not told their membership renews.
    this.mail.sendOnlyIf('subscription_reminder', ({ subscription_id, renewal }) =>
      this.subs.stillRenewsOn(subscription_id, new Date(renewal)),
    );
    this.jobs.register('subscriptions.reminders', async () => {
      await this.run(new Date());
    });
    this.jobs.schedule('subscriptions.reminders', '23 * * * *', {});
    this.jobs.runnable('reminders', () => this.run(new Date()));
  }

  async run(now: Date): Promise<number> {
    let sent = 0;
    let after: string | undefined;
    for (;;) {
      const batch = await this.tx.run(async () => {
        const soon = await this.subs.toRemind(now, addDays(now, HORIZON_DAYS), BATCH, after);
        const due = [];
        for (const s of soon) {
          const lead = reminderDays(await this.sites.settingsOf(s.site_id));
          if (s.next_billing_date && s.next_billing_date <= addDays(now, lead)) due.push(s);
        }
        const marked = new Set(await this.subs.markReminded(due.map((s) => s.id)));
        const mine = due.filter((s) => marked.has(s.id));
        const contacts = await this.accounts.contactsOf(mine.map((s) => s.user_id));
        await this.jobs.enqueueMany(
          'mail.send',
          mine.flatMap((s) => {
            const to = contacts.get(s.user_id);
            const renewal = s.next_billing_date; // set: only those due a renewal are reminded
            return to && renewal
              ? [
                  {
                    kind: 'subscription_reminder' as const,
                    site_id: s.site_id,
                    to: to.email,
                    user_id: s.user_id,
                    variables: {
                      ...membershipVariables(s),
                      first_name: to.firstName,
                      renewal_date: day(renewal),
                    },
                    about: { subscription_id: s.id, renewal: renewal.toISOString() },
                  },
                ]
              : [];
          }),
        );
        return { seen: soon.length, sent: mine.length, last: soon.at(-1)?.id };
      });
      sent += batch.sent;
      // Those not due yet stay for a later run. Each site has its own lead, so renewals due a reminder can
      // come after a page of others that are not (a 14-day lead's behind a 7-day lead's 500): the run pages on
      // past them to the horizon, in id order.
      if (batch.seen < BATCH || !batch.last) return sent;
      after = batch.last;
    }
  }
}
