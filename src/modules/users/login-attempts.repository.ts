import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { failureWindowStart, LOCKOUT, lockedUntil } from './login.rules.js';
import { User } from './entities/user.entity.js';
import { normalizedEmail } from '#app/common/email-address.js';

/** The queries behind logging in: the password hash (never selected elsewhere) and failure counting. */
@Injectable()
export class LoginAttemptsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  findWithPassword(siteId: string, email: string): Promise<User | null> {
    return this.db
      .getRepository(User)
      .createQueryBuilder('u')
      .addSelect('u.password_hash')
      .where('u.site_id = :siteId AND u.email_normalized = :email AND u.deleted_at IS NULL', {
        siteId,
        email: normalizedEmail(email),
      })
      .getOne();
  }

  /** A live user by id with its password hash (re-authentication before an account is deleted). */
  findWithPasswordById(id: string): Promise<User | null> {
    return this.db
      .getRepository(User)
      .createQueryBuilder('u')
      .addSelect('u.password_hash')
      .where('u.id = :id AND u.deleted_at IS NULL', { id })
      .getOne();
  }

  /**
   * One statement, so concurrent wrong guesses cannot under-count: the counter rises, and when it
   * reaches the threshold the lock is set and the counter starts again for the next window. A failure after a
   * quiet window (`failureWindowStart`) counts from one: the earlier ones are forgotten, not added to.
   */
  async recordFailure(userId: string, now: Date): Promise<boolean> {
    // The failures so far, as this row holds them when the UPDATE takes it (a CTE would read an older
    // snapshot and lose a concurrent failure); spelled out in each SET, which all see the row before it.
    const failures = `(CASE WHEN last_failed_login_at >= $4 THEN failed_login_attempts ELSE 0 END + 1)`;
    const rows = await this.db.query<[Array<{ locked: boolean }>, number]>(
      `UPDATE users
          SET failed_login_attempts = CASE WHEN ${failures} >= $2 THEN 0 ELSE ${failures} END,
              account_locked_until = CASE WHEN ${failures} >= $2 THEN $3::timestamptz ELSE account_locked_until END,
              last_failed_login_at = $5
        WHERE id = $1
        RETURNING (failed_login_attempts = 0) AS locked`,
      [userId, LOCKOUT.maxFailures, lockedUntil(now), failureWindowStart(now), now],
    );
    return rows[0][0]?.locked ?? false;
  }

  /**
   * A successful password login, only while the password it verified is still the stored one, the user is live
   * and the account is not locked: the hash is checked outside any transaction, so a reset may land in between
   * (its revocation would not see the tokens this login is about to issue), and so may the failure that locks
   * the account (guesses sent in parallel, the right one among them). The `UPDATE` also holds the row until the
   * login commits, so a reset that comes after waits and then revokes them. Answers `locked` when the lock is
   * what refused it, for the activity log.
   */
  async recordPasswordLogin(
    userId: string,
    verifiedHash: string,
    now: Date,
    manager: EntityManager,
  ): Promise<'recorded' | 'locked' | 'refused'> {
    const result = await manager
      .createQueryBuilder()
      .update(User)
      .set({ last_login_at: now, failed_login_attempts: 0, account_locked_until: null })
      .where('id = :userId AND password_hash = :verifiedHash AND deleted_at IS NULL', {
        userId,
        verifiedHash,
      })
      .andWhere('(account_locked_until IS NULL OR account_locked_until <= :now)', { now })
      .execute();
    if ((result.affected ?? 0) === 1) return 'recorded';
    const rows = await manager.query<Array<{ locked: boolean }>>(
      `SELECT account_locked_until > $2 AS locked FROM users WHERE id = $1 AND deleted_at IS NULL`,
      [userId, now],
    );
    return rows.some((row) => row.locked) ? 'locked' : 'refused';
  }

  async setPassword(userId: string, passwordHash: string, manager: EntityManager): Promise<void> {
    await manager.getRepository(User).update({ id: userId }, { password_hash: passwordHash });
  }
}
