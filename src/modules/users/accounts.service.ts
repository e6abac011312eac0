import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { QueryFailedError } from 'typeorm';
import type { AuthUserLookup } from '#app/common/auth/auth-user-lookup.js';
import { AppException } from '#app/common/errors/app.exception.js';
import { acceptedEmailProblem } from '#app/common/validation/email.rules.js';
import type { UserProfile } from './entities/user-profile.entity.js';
import type { User } from './entities/user.entity.js';
import { type ErasedUser, type NewUser, UsersRepository } from './users.repository.js';
import { tombstoneEmail } from './users.rules.js';
import { LoginAttemptsRepository } from './login-attempts.repository.js';
import { SignupHooks } from './ports/signup-hooks.port.js';

const UNIQUE_VIOLATION = '23505';

/**
 * The credential side of a user, as the auth feature needs it. Auth never touches the users table
 * directly (DESIGN §1); it asks here.
 */
@Injectable()
export class AccountsService implements AuthUserLookup {
  constructor(
    private readonly users: UsersRepository,
    private readonly attempts: LoginAttemptsRepository,
    private readonly hooks: SignupHooks,
  ) {}

  findActiveForToken(id: string): Promise<User | null> {
    return this.users.findById(id);
  }

  findById(id: string, manager?: EntityManager): Promise<User | null> {
    return this.users.findById(id, manager);
  }

  /** Where to write to each user (deleted users are left out), in one query. */
  async contactsOf(
    ids: string[],
    manager?: EntityManager,
  ): Promise<
    Map<string, { email: string; name: string | null; firstName: string | null; county: string | null }>
  > {
    const rows = await this.users.contactsOf(ids, manager);
    return new Map(
      rows.map((r) => [r.id, { email: r.email, name: r.name, firstName: r.first_name, county: r.county }]),
    );
  }

  findByEmail(siteId: string, email: string, manager?: EntityManager): Promise<User | null> {
    return this.users.findByEmail(siteId, email, manager);
  }

  /**
   * Holds the user's row as the rows the caller is about to write will (their foreign keys take it `FOR KEY
   * SHARE`), before the caller locks rows of its own: an account's erasure takes the user's row first (`FOR
   * UPDATE`) and the user's other rows after it, so a change that locks one of those rows and then writes a row
   * referencing the user would wait for the erasure while the erasure waits for it (a deadlock). Taken first,
   * both go in the one order: the user, then the rest.
   */
  holdAccount(userId: string): Promise<void> {
    return this.users.holdForKeyShare(userId);
  }

  /**
   * `holdAccount` for a batch's users, passing over any an erasure holds (the batch leaves them for its next
   * run, by when the erasure has ended what it must): answers those held.
   */
  holdAccountsSkippingErasures(userIds: string[]): Promise<string[]> {
    return this.users.holdForKeyShareSkippingLocked(userIds);
  }

  /** Whether a live user has never set a password (made by a guest purchase or a website form). */
  awaitsPassword(userId: string): Promise<boolean> {
    return this.users.awaitsPassword(userId);
  }

  /** Writes profile fields (only those given). */
  updateProfile(userId: string, changes: Partial<UserProfile>, manager?: EntityManager): Promise<void> {
    return this.users.updateProfile(userId, changes, manager);
  }

  findWithPassword(siteId: string, email: string): Promise<User | null> {
    return this.attempts.findWithPassword(siteId, email);
  }

  findWithPasswordById(id: string): Promise<User | null> {
    return this.attempts.findWithPasswordById(id);
  }

  /**
   * Soft-deletes and anonymises a live user in the ambient transaction (account deletion): answers the
   * row as it was, or null when it is unknown or already deleted (a racing deletion won).
   */
  erase(id: string, reason: string, now: Date): Promise<ErasedUser | null> {
    return this.users.erase(id, tombstoneEmail(id), reason, now);
  }

  /**
   * 409 EMAIL_TAKEN when the site already has the address (decided by the unique index, not a pre-check).
   * Every account hook then runs in the same transaction (responsible play starts the account with limits
   * held for its address), whichever way the account is made.
   */
  async create(user: NewUser, manager: EntityManager): Promise<User> {
    // Every way in validates the address first (`Email()`, the form reader); this keeps one that did not from
    // failing the insert (a 500), taking an erased account's tombstone (which would block its erasure), or
    // making an account under an address no sign-in accepts.
    const problem = acceptedEmailProblem(user.email);
    if (problem) throw AppException.validation([{ field: 'email', message: problem }]);
    let made: User;
    try {
      made = await this.users.create(user, manager);
    } catch (error) {
      if (
        error instanceof QueryFailedError &&
        (error.driverError as { code?: string }).code === UNIQUE_VIOLATION
      ) {
        throw AppException.conflict(
          'EMAIL_TAKEN',
          'An account with this e-mail already exists on this site.',
        );
      }
      throw error;
    }
    await this.hooks.accountCreated({
      userId: made.id,
      siteId: made.site_id,
      email: made.email,
      at: new Date(),
      manager,
    });
    return made;
  }

  /** Counts a failure atomically and locks the account when the rule says so; answers whether it locked. */
  recordFailedLogin(userId: string, now: Date): Promise<boolean> {
    return this.attempts.recordFailure(userId, now);
  }

  recordLogin(userId: string, now: Date, manager?: EntityManager): Promise<void> {
    return this.users.update(
      userId,
      { last_login_at: now, failed_login_attempts: 0, account_locked_until: null },
      manager,
    );
  }

  /** A password login's record, refused (false) when the password changed since it was verified. */
  recordPasswordLogin(
    userId: string,
    verifiedHash: string,
    now: Date,
    manager: EntityManager,
  ): Promise<'recorded' | 'locked' | 'refused'> {
    return this.attempts.recordPasswordLogin(userId, verifiedHash, now, manager);
  }

  /** The live user, its row held `FOR SHARE` until the transaction ends: a session is issued from it. */
  lockForSession(id: string, manager: EntityManager): Promise<Pick<User, 'id' | 'site_id' | 'role'> | null> {
    return this.users.lockForSession(id, manager);
  }

  /** Holds the user's row against `lockForSession` until the transaction ends: sessions are being ended. */
  lockForSessionEnd(id: string, manager: EntityManager): Promise<void> {
    return this.users.lockForSessionEnd(id, manager);
  }

  /** Holds the user's row as `lockForSessionEnd` does, and ends its access tokens issued before `at`. */
  endSessionsAt(id: string, at: Date, manager: EntityManager): Promise<void> {
    return this.users.endSessionsAt(id, at, manager);
  }

  /** A password set by a token also proves the e-mail and ends any lock (DESIGN §3). */
  async setPassword(user: User, passwordHash: string, now: Date, manager: EntityManager): Promise<void> {
    await this.attempts.setPassword(user.id, passwordHash, manager);
    await this.users.update(
      user.id,
      {
        email_verified_at: user.email_verified_at ?? now,
        failed_login_attempts: 0,
        account_locked_until: null,
      },
      manager,
    );
  }

  async markEmailVerified(user: User, now: Date, manager: EntityManager): Promise<void> {
    if (!user.email_verified_at) await this.users.update(user.id, { email_verified_at: now }, manager);
  }
}
