import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppException } from '#app/common/errors/app.exception.js';
import type { RequestMeta } from '#app/common/http/request-meta.js';
import { AppConfig } from '#app/config/app-config.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { MailService } from '#app/modules/mail/mail.service.js';
import type { MailKind } from '#app/modules/mail/mail.types.js';
import { siteLinkBase } from '#app/modules/sites/sites.rules.js';
import { SitesService } from '#app/modules/sites/sites.service.js';
import { AccountsService } from '#app/modules/users/accounts.service.js';
import { ActivityLogService } from '#app/modules/users/activity-log.service.js';
import type { User } from '#app/modules/users/entities/user.entity.js';
import {
  frontendLink,
  isSpendable,
  minutesFrom,
  PASSWORD_LINKS,
  passwordProblems,
  SPENT_BY_PASSWORD_CHANGE,
  staffLinkBase,
  TTL,
} from './auth.rules.js';
import type { EmailSentDto, PasswordSetDto, TokenPairDto } from './dto/auth.dto.js';
import type { OneTimePurpose } from './entities/one-time-token.entity.js';
import { OneTimeTokensRepository } from './one-time-tokens.repository.js';
import { PasswordHasher } from './password-hasher.js';
import { SessionService } from './session.service.js';
import { hashToken, newOpaqueToken } from './token-crypto.js';

const SENT = 'If an account exists for this address, we have sent it an e-mail.';
const INVALID_TOKEN = 'The link is not valid: it may have expired or been used already.';

const LINKS: Record<OneTimePurpose, { path: string; minutes: number; mail: MailKind }> = {
  password_reset: { path: 'reset-password', minutes: TTL.resetMinutes, mail: 'password_reset' },
  password_set: { path: 'set-password', minutes: TTL.setMinutes, mail: 'password_set' },
  magic_link: { path: 'magic-link', minutes: TTL.magicLinkMinutes, mail: 'magic_link' },
};

/**
 * E-mailed single-use links: password reset, password set (accounts made without a password) and
 * sign-in links. Requests answer the same whether or not the account exists (no enumeration).
 */
@Injectable()
export class PasswordFlowsService {
  constructor(
    private readonly accounts: AccountsService,
    private readonly sites: SitesService,
    private readonly tokens: OneTimeTokensRepository,
    private readonly sessions: SessionService,
    private readonly hasher: PasswordHasher,
    private readonly activity: ActivityLogService,
    private readonly mail: MailService,
    private readonly tx: TransactionRunner,
    private readonly config: AppConfig,
  ) {}

  requestPasswordReset(email: string, siteId: string, meta: RequestMeta): Promise<EmailSentDto> {
    return this.requestLink('password_reset', email, siteId, meta);
  }

  requestMagicLink(email: string, siteId: string, meta: RequestMeta): Promise<EmailSentDto> {
    return this.requestLink('magic_link', email, siteId, meta);
  }

  /**
   * For features that create accounts without a password (guest purchase, website form): makes a
   * password-set link inside the caller's transaction and answers it for the caller's own e-mail.
   */
  passwordSetLink(user: Pick<User, 'id' | 'site_id'>, manager: EntityManager): Promise<string> {
    // Such accounts are made as members ('user'): the link travels in the site's own purchase or welcome mail.
    return this.createLink('password_set', { ...user, role: 'user' }, manager);
  }

  /** Endpoint 1: a reset or set token and a new password; activates the account and ends other sessions. */
  async confirmPasswordSet(token: string, password: string, meta: RequestMeta): Promise<PasswordSetDto> {
    const now = new Date();
    // The token is looked at first (a read, no lock), and only one that can be spent buys an argon2 hash:
    // the hash costs tens of milliseconds of the CPU every login shares, and anyone can send junk tokens.
    const preview = await this.tokens.findByHash(hashToken(token));
    const owner =
      preview && isSpendable(preview, PASSWORD_LINKS, now)
        ? await this.accounts.findById(preview.user_id)
        : null;
    if (!owner) throw invalidToken();
    const problems = passwordProblems(password, owner.email);
    if (problems.length)
      throw AppException.validation(problems.map((message) => ({ field: 'password', message })));
    const passwordHash = await this.hasher.hash(password);
    return this.tx.run(async (manager) => {
      // The member's row first, as every flow that spends a member's links or ends their sessions takes it
      // (`holdOwner`); then the token is spent atomically, whatever the preview saw: of two uses racing, one
      // wins and the other is refused. The account is read live under that lock: an erasure that committed
      // meanwhile is seen, and one that comes after waits for this commit and clears the password again.
      await this.holdOwner(owner.id, manager);
      const spent = await this.tokens.consume(hashToken(token), PASSWORD_LINKS, now, manager);
      const user = spent ? await this.accounts.findById(spent.user_id, manager) : null;
      if (!spent || !user) throw invalidToken();
      await this.accounts.setPassword(user, passwordHash, now, manager);
      await this.tokens.spendAll(user.id, SPENT_BY_PASSWORD_CHANGE, now, manager);
      await this.sessions.endAllSessions(user.id, manager);
      await this.activity.record(
        {
          userId: user.id,
          siteId: user.site_id,
          type: 'password_change',
          description:
            spent.purpose === 'password_set' ? 'Password set; account activated' : 'Password reset',
          severity: 'warning',
          metadata: { via: spent.purpose },
        },
        meta,
        manager,
      );
      const activation_link = await this.createLink('magic_link', user, manager);
      return {
        activation_link,
        email: user.email,
        message: 'Your password is set and your account is active.',
      };
    });
  }

  /** Exchanges a sign-in link for tokens; the link proves the e-mail. */
  async verifyMagicLink(token: string, meta: RequestMeta): Promise<TokenPairDto> {
    const now = new Date();
    // Whose link it is (a read, no lock; a token's owner never changes), so that their row is held first.
    const preview = await this.tokens.findByHash(hashToken(token));
    if (!preview) throw AppException.unauthenticated(INVALID_TOKEN);
    return this.tx.run(async (manager) => {
      await this.holdOwner(preview.user_id, manager);
      const spent = await this.tokens.consume(hashToken(token), ['magic_link'], now, manager);
      const user = spent ? await this.accounts.findById(spent.user_id, manager) : null;
      if (!spent || !user) throw AppException.unauthenticated(INVALID_TOKEN);
      await this.accounts.markEmailVerified(user, now, manager);
      await this.accounts.recordLogin(user.id, now, manager);
      await this.activity.record(
        {
          userId: user.id,
          siteId: user.site_id,
          type: 'login',
          description: 'Logged in with a sign-in link',
        },
        meta,
        manager,
      );
      return this.sessions.issue(user, manager);
    });
  }

  /**
   * Holds the member's row before any of their links is spent. Spending one link locks its row, and a password
   * set then updates the member and spends their other links: two links of one member spent at once (a reset
   * in two tabs, a reset and a sign-in link) each held their own link and waited for the other's, a deadlock
   * PostgreSQL ended with a 500. Taking the member first puts them in line.
   */
  private holdOwner(userId: string, manager: EntityManager): Promise<void> {
    return this.accounts.lockForSessionEnd(userId, manager);
  }

  private async requestLink(
    purpose: 'password_reset' | 'magic_link',
    email: string,
    siteId: string,
    meta: RequestMeta,
  ): Promise<EmailSentDto> {
    const user = await this.accounts.findByEmail(siteId, email);
    if (user) {
      await this.tx.run(async (manager) => {
        await this.createLink(purpose, user, manager, user.email);
        await this.activity.record(
          {
            userId: user.id,
            siteId: user.site_id,
            type: purpose === 'magic_link' ? 'magic_link_requested' : 'password_reset_requested',
            description: purpose === 'magic_link' ? 'Sign-in link requested' : 'Password reset requested',
          },
          meta,
          manager,
        );
      });
    }
    return { email, message: SENT };
  }

  /** Stores the token's hash and, when `mailTo` is given, e-mails the link in the same transaction. */
  private async createLink(
    purpose: OneTimePurpose,
    user: Pick<User, 'id' | 'site_id' | 'role'>,
    manager: EntityManager,
    mailTo?: string,
  ): Promise<string> {
    const link = LINKS[purpose];
    const token = newOpaqueToken();
    await this.tokens.create(
      {
        user_id: user.id,
        purpose,
        token_hash: hashToken(token),
        expires_at: minutesFrom(new Date(), link.minutes),
      },
      manager,
    );
    // A staff account's links never start from the site's frontend_url: a site's admin may point it at a
    // server it runs and read a superadmin's token off the address (see staffLinkBase).
    const staff = user.role !== 'user';
    const base = staff
      ? staffLinkBase(this.config)
      : siteLinkBase(await this.sites.findBySiteId(user.site_id, manager), user.site_id, this.config);
    const url = frontendLink(base, link.path, token);
    if (mailTo) {
      await this.mail.send(
        {
          kind: link.mail,
          siteId: user.site_id,
          to: mailTo,
          userId: user.id,
          variables: { link: url, expires_minutes: link.minutes },
          staffAccess: staff,
        },
        manager,
      );
    }
    return url;
  }
}

function invalidToken(): AppException {
  return AppException.unprocessable('INVALID_TOKEN', INVALID_TOKEN);
}
