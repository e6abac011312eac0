import { Injectable } from '@nestjs/common';
import { HttpStatus } from '@nestjs/common';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { AppException } from '#app/common/errors/app.exception.js';
import type { RequestMeta } from '#app/common/http/request-meta.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { PasswordHasher } from '#app/modules/auth/password-hasher.js';
import { SessionService } from '#app/modules/auth/session.service.js';
import { EntryVoidsService } from '#app/modules/raffles/entries/entry-voids.service.js';
import { LimitHoldsService } from '#app/modules/responsible-play/limit-holds.service.js';
import { ReferralsService } from '#app/modules/rewards/referrals.service.js';
import { SubscriptionChangesService } from '#app/modules/subscriptions/subscription-changes.service.js';
import { CmsErasureService } from '#app/modules/cms/cms-erasure.service.js';
import { AccountsService } from '#app/modules/users/accounts.service.js';
import { ActivityLogService } from '#app/modules/users/activity-log.service.js';
import { SignupHooks } from '#app/modules/users/ports/signup-hooks.port.js';
import { adminDeletionRefusal, selfDeletionCheck } from './account-deletion.rules.js';

const WRONG_PASSWORD = 'The password is not correct.';

/**
 * Account deletion (GDPR erasure, soft): the account is anonymised and its sessions end, its
 * memberships end with no further charge, its referral is cancelled with the referrer's bonuses
 * taken back, and its entries in raffles still open leave their draws — all in one transaction, which the
 * first of racing deletions wins (the others find no live account: 404). Payments, entries (voided or not)
 * and the points ledger stay: they are financial records.
 */
@Injectable()
export class AccountDeletionService {
  constructor(
    private readonly accounts: AccountsService,
    private readonly hasher: PasswordHasher,
    private readonly sessions: SessionService,
    private readonly subscriptions: SubscriptionChangesService,
    private readonly referrals: ReferralsService,
    private readonly signups: SignupHooks,
    private readonly limitHolds: LimitHoldsService,
    private readonly entryVoids: EntryVoidsService,
    private readonly activity: ActivityLogService,
    private readonly tx: TransactionRunner,
    private readonly forms: CmsErasureService,
  ) {}

  /** `DELETE /users/me`: the caller proves its password again (when it has one), then is erased. */
  async deleteOwn(caller: AuthUser, body: { password?: string; reason?: string }, meta: RequestMeta) {
    const me = await this.accounts.findWithPasswordById(caller.id);
    if (!me) throw AppException.notFound('User');
    const now = new Date();
    const check = selfDeletionCheck(
      { hasPassword: !!me.password_hash, lockedUntil: me.account_locked_until },
      body.password,
      now,
    );
    if (check === 'PASSWORD_MISSING')
      throw AppException.validation(
        [{ field: 'password', message: 'password is required to delete an account that has one' }],
        'Confirm the deletion with your current password.',
      );
    // Verified outside any transaction (hashing must not hold a lock); a wrong guess counts towards
    // the login lock, so a stolen access token cannot be used to guess the password here.
    if (
      check === 'LOCKED' ||
      (check === 'PASSWORD' && !(await this.hasher.verify(me.password_hash, body.password ?? '')))
    ) {
      const nowLocked = check === 'PASSWORD' && (await this.accounts.recordFailedLogin(me.id, now));
      // The lock a wrong guess here causes is logged as a failed login's is (DESIGN §3: security events).
      if (nowLocked)
        await this.activity.record(
          {
            userId: me.id,
            siteId: me.site_id,
            type: 'account_locked',
            description: 'Account locked after repeated wrong passwords at account deletion',
            severity: 'warning',
          },
          meta,
        );
      await this.activity.record(
        {
          userId: me.id,
          siteId: me.site_id,
          type: 'account_deletion_refused',
          description: 'Account deletion refused: wrong password',
          severity: 'warning',
        },
        meta,
      );
      throw new AppException(HttpStatus.FORBIDDEN, 'WRONG_PASSWORD', WRONG_PASSWORD);
    }
    await this.erase(me.id, caller, body.reason ?? 'Deleted by the account holder', meta);
  }

  /** `DELETE /admin/users/{id}`: an admin of the user's site, or a superadmin (rules in `.rules.ts`). */
  async deleteByAdmin(actor: AuthUser, id: string, body: { reason?: string }, meta: RequestMeta) {
    const target = await this.accounts.findById(id);
    if (!target) throw AppException.notFound('User');
    const refused = adminDeletionRefusal(actor, target);
    if (refused === 'NOT_FOUND') throw AppException.notFound('User');
    if (refused === 'SELF')
      throw AppException.forbidden(
        'Delete your own account with DELETE /users/me (it asks for your password).',
      );
    if (refused === 'ROLE')
      throw AppException.forbidden('Only a superadmin may delete an admin or superadmin.');
    await this.erase(target.id, actor, body.reason ?? `Deleted by ${actor.role} ${actor.id}`, meta);
  }

  private async erase(userId: string, actor: AuthUser, reason: string, meta: RequestMeta): Promise<void> {
    const now = new Date();
    await this.tx.run(async (manager) => {
      // First, and conditional: of racing deletions only one gets the row; the others stop here.
      const gone = await this.accounts.erase(userId, reason, now);
      if (!gone) throw AppException.notFound('User');
      await this.sessions.endAllSessions(userId, manager);
      // A running self-pause or spend limit stays with the address, or deleting would be the way out of it.
      await this.limitHolds.keepFor(manager, gone, now);
      // The contact list forgets the address (the job carries it: the row no longer does).
      if (gone.marketing_consent)
        await this.signups.consentChanged({
          userId,
          siteId: gone.site_id,
          email: gone.email,
          marketingConsent: false,
        });
      const memberships = await this.subscriptions.endAllOf(userId, actor, 'account_deleted', meta);
      const referrals = await this.referrals.accountDeleted(userId);
      // What the person typed into website forms (name, phone, address), in our record and the inbox's copy.
      await this.forms.accountErased(userId);
      // Nobody could tell an erased account it won, nor could it sign in to claim: it leaves every draw
      // whose ticket list is not published yet (a published one never changes: DECISIONS). Last, but for
      // the activity row that travels with the COMMIT: the void holds the raffles' rows, the counters every
      // buyer queues on, until the commit (DESIGN §6).
      const entriesVoided = await this.entryVoids.accountErased(userId, now);
      this.activity.recordLater(
        {
          userId,
          siteId: gone.site_id,
          type: 'account_deleted',
          description:
            actor.id === userId ? 'Account deleted by its holder' : `Account deleted by ${actor.role}`,
          severity: 'warning',
          resourceType: 'user',
          resourceId: userId,
          metadata: {
            by: actor.id,
            actor_role: actor.role,
            memberships_cancelled: memberships,
            referral_cancelled: referrals.asReferee.map((r) => ({
              id: r.id,
              was: r.was_status,
              points_due: r.due,
              points_taken: r.taken,
            })),
            pending_referrals_cancelled: referrals.pendingAsReferrer,
            raffle_entries_voided: entriesVoided,
          },
        },
        meta,
      );
    });
  }
}
