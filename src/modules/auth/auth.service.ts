import { SignupHooks } from '#app/modules/users/ports/signup-hooks.port.js';
import { Injectable } from '@nestjs/common';
import { AppException } from '#app/common/errors/app.exception.js';
import type { RequestMeta } from '#app/common/http/request-meta.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { MailService } from '#app/modules/mail/mail.service.js';
import { SitesService } from '#app/modules/sites/sites.service.js';
import { AccountsService } from '#app/modules/users/accounts.service.js';
import { ActivityLogService } from '#app/modules/users/activity-log.service.js';
import { isLocked } from '#app/modules/users/login.rules.js';
import { UsersService } from '#app/modules/users/users.service.js';
import { isUnder18, passwordProblems, siteRequiresAgeCheck } from './auth.rules.js';
import type { LoginDto, RegisterDto, RegisteredDto, TokenPairDto } from './dto/auth.dto.js';
import { PasswordHasher } from './password-hasher.js';
import { SessionService } from './session.service.js';

const BAD_CREDENTIALS = 'The e-mail or password is not correct, or the account is locked.';

@Injectable()
export class AuthService {
  constructor(
    private readonly accounts: AccountsService,
    private readonly users: UsersService,
    private readonly sites: SitesService,
    private readonly sessions: SessionService,
    private readonly hasher: PasswordHasher,
    private readonly activity: ActivityLogService,
    private readonly mail: MailService,
    private readonly tx: TransactionRunner,
    private readonly signups: SignupHooks,
  ) {}

  async register(body: RegisterDto, meta: RequestMeta): Promise<RegisteredDto> {
    const problems = passwordProblems(body.password, body.email);
    if (problems.length)
      throw AppException.validation(problems.map((message) => ({ field: 'password', message })));
    const site = await this.sites.requireSite(body.site_id);
    const now = new Date();
    if (siteRequiresAgeCheck(site.additional_settings)) {
      if (!body.age_confirmed)
        throw AppException.unprocessable('AGE_REQUIRED', 'You must confirm that you are 18 or over.');
    }
    if (body.date_of_birth && isUnder18(body.date_of_birth, now)) {
      throw AppException.unprocessable('UNDER_AGE', 'You must be 18 or over to register.');
    }
    if (!body.data_processing_consent) {
      throw AppException.unprocessable(
        'CONSENT_REQUIRED',
        'Consent to data processing is needed to hold an account.',
      );
    }
    const passwordHash = await this.hasher.hash(body.password);
    const tokens = await this.tx.run(async (manager) => {
      const user = await this.accounts.create(
        {
          site_id: site.site_id,
          email: body.email,
          name: body.name ?? null,
          role: 'user',
          signup_source: 'register',
          password_hash: passwordHash,
          has_consented: true,
          data_processing_consent: true,
          marketing_consent: body.marketing_consent ?? false,
          consent_given_at: now,
          age_confirmed_at: body.age_confirmed ? now : null,
          date_of_birth: body.date_of_birth ?? null,
          last_login_at: now,
        },
        manager,
      );
      await this.activity.record(
        {
          userId: user.id,
          siteId: user.site_id,
          type: 'register',
          description: 'Account registered',
          metadata: {
            marketing_consent: user.marketing_consent,
            referral_code: body.referral_code ?? null,
            spin_token_presented: !!body.spin_token,
          },
        },
        meta,
        manager,
      );
      await this.signups.joined({
        userId: user.id,
        siteId: user.site_id,
        email: user.email,
        at: now,
        referralCode: body.referral_code ?? null,
        spinToken: body.spin_token ?? null,
        meta,
      });
      await this.mail.send(
        {
          kind: 'welcome',
          siteId: user.site_id,
          to: user.email,
          userId: user.id,
          variables: { first_name: body.name ?? null },
        },
        manager,
      );
      return { userId: user.id, pair: await this.sessions.issue(user, manager) };
    });
    return { ...tokens.pair, user: await this.users.getUser(tokens.userId) };
  }

  /**
   * Unknown e-mail, wrong password and a locked account all answer the same 401 (DESIGN §3). The
   * password is checked outside any transaction: hashing must not hold a lock.
   */
  async login(body: LoginDto, meta: RequestMeta): Promise<TokenPairDto> {
    const now = new Date();
    const user = await this.accounts.findWithPassword(body.site_id, body.email);
    const valid = await this.hasher.verify(user?.password_hash, body.password);
    if (!user) throw AppException.unauthenticated(BAD_CREDENTIALS);
    const locked = isLocked(user, now);
    if (!valid || locked) {
      const nowLocked = !locked && (await this.accounts.recordFailedLogin(user.id, now));
      await this.recordRefusal(user, locked, nowLocked, meta);
      throw AppException.unauthenticated(BAD_CREDENTIALS);
    }
    const outcome = await this.tx.run(async (manager) => {
      // Only while the verified password is still the stored one and the account is not locked: a reset, or
      // the failure that locks it (guesses in parallel), may have committed since the check. The same statement
      // holds the row until the tokens commit, so a reset coming after waits and revokes them (DECISIONS,
      // "Sessions of one user").
      const verifiedHash = user.password_hash;
      const recorded = verifiedHash
        ? await this.accounts.recordPasswordLogin(user.id, verifiedHash, now, manager)
        : 'refused';
      if (recorded !== 'recorded') return recorded;
      await this.activity.record(
        { userId: user.id, siteId: user.site_id, type: 'login', description: 'Logged in with password' },
        meta,
        manager,
      );
      return this.sessions.issue(user, manager);
    });
    if (outcome === 'locked') await this.recordRefusal(user, true, false, meta);
    if (typeof outcome === 'string') throw AppException.unauthenticated(BAD_CREDENTIALS);
    return outcome;
  }

  /** A refused sign-in, in the activity log: a wrong password, a lock it caused, or a lock that refused it. */
  private recordRefusal(
    user: { id: string; site_id: string },
    locked: boolean,
    nowLocked: boolean,
    meta: RequestMeta,
  ): Promise<void> {
    return this.activity.record(
      {
        userId: user.id,
        siteId: user.site_id,
        type: nowLocked ? 'account_locked' : 'login_failed',
        description: nowLocked ? 'Account locked after repeated failed logins' : 'Failed login',
        severity: nowLocked || locked ? 'warning' : 'info',
        metadata: { reason: locked ? 'locked' : 'bad_password' },
      },
      meta,
    );
  }
}
