import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { Injectable } from '@nestjs/common';
import { type EntityManager, IsNull, type Repository } from 'typeorm';
import { UserProfile } from './entities/user-profile.entity.js';
import { User } from './entities/user.entity.js';
import { normalizedEmail } from '#app/common/email-address.js';

/** A deleted user as it was just before its erasure: what the other features' clean-up needs. */
export interface ErasedUser {
  id: string;
  site_id: string;
  email: string;
  role: User['role'];
  marketing_consent: boolean;
}

export type NewUser = Pick<User, 'site_id' | 'email' | 'role' | 'signup_source'> & Partial<User>;

@Injectable()
export class UsersRepository {
  constructor(private readonly tx: TransactionRunner) {}

  /** Users in the ambient transaction when there is one. */
  private get users(): Repository<User> {
    return this.tx.repo(User);
  }

  private repo(manager?: EntityManager): Repository<User> {
    return manager ? manager.getRepository(User) : this.users;
  }

  findById(id: string, manager?: EntityManager): Promise<User | null> {
    return this.repo(manager).findOne({ where: { id, deleted_at: IsNull() }, relations: { profile: true } });
  }

  /** Address, name and first name of each user asked about (not deleted), in one query. */
  async contactsOf(
    ids: string[],
    manager?: EntityManager,
  ): Promise<
    Array<{
      id: string;
      email: string;
      name: string | null;
      first_name: string | null;
      county: string | null;
    }>
  > {
    if (!ids.length) return [];
    return (manager ?? this.tx.manager).query(
      `SELECT u.id, u.email, u.name, p.first_name, p.state_region AS county FROM users u
         LEFT JOIN user_profiles p ON p.user_id = u.id
        WHERE u.id = ANY($1::uuid[]) AND u.deleted_at IS NULL`,
      [ids],
    );
  }

  findByEmail(siteId: string, email: string, manager?: EntityManager): Promise<User | null> {
    return this.repo(manager).findOne({
      where: { site_id: siteId, email_normalized: normalizedEmail(email), deleted_at: IsNull() },
    });
  }

  /**
   * Takes the user's row `FOR KEY SHARE` (what a row referencing the user takes through its foreign key) in the
   * ambient transaction, deleted or not.
   */
  async holdForKeyShare(id: string): Promise<void> {
    await this.tx.manager.query(`SELECT 1 FROM users WHERE id = $1 FOR KEY SHARE`, [id]);
  }

  /** `holdForKeyShare` for several users, skipping those another transaction holds (an erasure); the held ids. */
  async holdForKeyShareSkippingLocked(ids: string[]): Promise<string[]> {
    if (!ids.length) return [];
    const rows = await this.tx.manager.query<Array<{ id: string }>>(
      `SELECT id FROM users WHERE id = ANY($1::uuid[]) ORDER BY id FOR KEY SHARE SKIP LOCKED`,
      [ids],
    );
    return rows.map((r) => r.id);
  }

  /** Whether a live user has never set a password (made by a guest purchase or a website form). */
  async awaitsPassword(id: string, manager?: EntityManager): Promise<boolean> {
    const rows = await (manager ?? this.tx.manager).query<Array<{ awaits: boolean }>>(
      `SELECT password_hash IS NULL AS awaits FROM users WHERE id = $1 AND deleted_at IS NULL`,
      [id],
    );
    return rows.length > 0 && rows[0].awaits;
  }

  /** The row with its password hash, locked for the login attempt that reads it. */
  findForLogin(siteId: string, email: string, manager: EntityManager): Promise<User | null> {
    return manager
      .getRepository(User)
      .createQueryBuilder('u')
      .addSelect('u.password_hash')
      .where('u.site_id = :siteId AND u.email_normalized = :email AND u.deleted_at IS NULL', {
        siteId,
        email: normalizedEmail(email),
      })
      .setLock('pessimistic_write')
      .getOne();
  }

  /**
   * Takes the live user's row `FOR SHARE` before a refresh token is issued from it: sessions of one user
   * change one at a time (DECISIONS, "Sessions of one user"), so a revocation holding the row waits for
   * this transaction and then sees its token, and this one, once a revocation has committed, sees the
   * user deleted or its token revoked. Shared, so a user's own refreshes do not queue behind each other.
   */
  lockForSession(id: string, manager: EntityManager): Promise<Pick<User, 'id' | 'site_id' | 'role'> | null> {
    return manager
      .getRepository(User)
      .createQueryBuilder('u')
      .select(['u.id', 'u.site_id', 'u.role'])
      .where('u.id = :id AND u.deleted_at IS NULL', { id })
      .setLock('pessimistic_read')
      .getOne();
  }

  /**
   * Takes the user's row before its sessions are revoked, against `lockForSession`'s share lock. `FOR NO KEY
   * UPDATE` is enough to conflict with it and, unlike `FOR UPDATE`, does not block other features inserting rows
   * that reference the user. Deleted rows too: a deletion revokes after its own erasure.
   */
  async lockForSessionEnd(id: string, manager: EntityManager): Promise<void> {
    await manager
      .getRepository(User)
      .createQueryBuilder('u')
      .select('u.id')
      .where('u.id = :id', { id })
      .setLock('for_no_key_update')
      .getOne();
  }

  /**
   * `lockForSessionEnd` for every session of the user at once: the same row lock (an `UPDATE` of a column no
   * key holds takes `FOR NO KEY UPDATE`), and its access tokens issued before `at` stop working.
   */
  async endSessionsAt(id: string, at: Date, manager: EntityManager): Promise<void> {
    await manager.query(`UPDATE users SET sessions_valid_from = $2 WHERE id = $1`, [id, at]);
  }

  async create(user: NewUser, manager?: EntityManager): Promise<User> {
    const repo = this.repo(manager);
    const row = repo.create({ ...user, email_normalized: normalizedEmail(user.email) });
    const saved = await repo.save(row);
    await (manager ?? this.tx.manager)
      .getRepository(UserProfile)
      .insert({ user_id: saved.id, site_id: saved.site_id });
    return saved;
  }

  async update(id: string, changes: Partial<User>, manager?: EntityManager): Promise<void> {
    await this.repo(manager).update({ id }, changes);
  }

  async updateProfile(userId: string, changes: Partial<UserProfile>, manager?: EntityManager): Promise<void> {
    if (!Object.keys(changes).length) return;
    await (manager ?? this.tx.manager).getRepository(UserProfile).update({ user_id: userId }, changes);
  }

  /**
   * Soft-deletes and anonymises the user in one statement (GDPR erasure): `deleted_at`, the e-mail
   * replaced by a tombstone so the address can register again, names, birth date, password and every
   * profile field cleared. Only a live row moves, so of two racing deletions exactly one gets the row
   * (the other waits for the first's lock, then finds it deleted). Answers the row as it was, or null.
   */
  async erase(id: string, tombstone: string, reason: string, now: Date): Promise<ErasedUser | null> {
    const rows = await this.tx.manager.query<ErasedUser[]>(
      `WITH gone AS (
         SELECT id, site_id, email, role, marketing_consent FROM users
          WHERE id = $1 AND deleted_at IS NULL FOR UPDATE),
       erased AS (
         UPDATE users u
            SET deleted_at = $3, deletion_reason = $4, email = $2, email_normalized = $2, name = NULL,
                password_hash = NULL, date_of_birth = NULL, marketing_consent = false,
                failed_login_attempts = 0, account_locked_until = NULL, updated_at = now()
           FROM gone WHERE u.id = gone.id
         RETURNING u.id),
       profile AS (
         UPDATE user_profiles p
            SET first_name = NULL, last_name = NULL, title = NULL, organization = NULL, phone_number = NULL,
                address = NULL, address_2 = NULL, city = NULL, state_region = NULL, zip_code = NULL,
                country = NULL, latitude = NULL, longitude = NULL, locale = NULL, timezone = NULL,
                marketing_id = NULL, accepts_marketing = false, updated_at = now()
           FROM erased WHERE p.user_id = erased.id),
       -- A failed mail's record named the address it was sent to, and its error may quote it (records written
       -- before they left it out): the account's address is gone, so are they.
       mails AS (
         UPDATE activity_logs l SET metadata = l.metadata - 'to' - 'error'
           FROM erased WHERE l.user_id = erased.id AND l.activity_type = 'mail_failed'
            AND (l.metadata ? 'to' OR l.metadata ? 'error'))
       SELECT gone.* FROM gone JOIN erased ON erased.id = gone.id`,
      [id, tombstone, now, reason.slice(0, 500)],
    );
    return rows[0] ?? null;
  }

  find(siteId: string, email: string | undefined, limit: number, cursor?: string): Promise<User[]> {
    const qb = this.users
      .createQueryBuilder('u')
      .where('u.site_id = :siteId AND u.deleted_at IS NULL', { siteId })
      .orderBy('u.id', 'ASC')
      .take(limit);
    if (email) qb.andWhere('u.email_normalized = :email', { email: normalizedEmail(email) });
    if (cursor) qb.andWhere('u.id > :cursor', { cursor });
    return qb.getMany();
  }
}
