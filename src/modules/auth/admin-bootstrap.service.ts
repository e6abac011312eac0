import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { AppException } from '#app/common/errors/app.exception.js';
import { NO_REQUEST } from '#app/common/http/request-meta.js';
import { AppConfig } from '#app/config/app-config.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { titleFromSiteId } from '#app/modules/sites/sites.rules.js';
import { SitesService } from '#app/modules/sites/sites.service.js';
import { AccountsService } from '#app/modules/users/accounts.service.js';
import { ActivityLogService } from '#app/modules/users/activity-log.service.js';
import { passwordProblems } from './auth.rules.js';
import { PasswordHasher } from './password-hasher.js';

export interface NewSuperadmin {
  email: string;
  password: string;
  siteId: string;
}

/**
 * The first superadmin and its site, from ADMIN_EMAIL / ADMIN_PASSWORD / ADMIN_SITE_ID at start-up
 * or `npm run admin:create`. Idempotent: an existing account is left as it is.
 */
@Injectable()
export class AdminBootstrapService implements OnApplicationBootstrap {
  private readonly logger = new Logger(AdminBootstrapService.name);

  constructor(
    private readonly config: AppConfig,
    private readonly sites: SitesService,
    private readonly accounts: AccountsService,
    private readonly hasher: PasswordHasher,
    private readonly activity: ActivityLogService,
    private readonly tx: TransactionRunner,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.sites.ensureSite(this.config.defaultSiteId, this.siteName(this.config.defaultSiteId), null);
    if (this.config.admin) await this.createSuperadmin(this.config.admin);
  }

  /** ADMIN_SITE_NAME for ADMIN_SITE_ID's site, else a title made from the id (`main` → `Main`). */
  private siteName(siteId: string): string {
    const given = siteId === this.config.defaultSiteId ? this.config.defaultSiteName : undefined;
    return given ?? titleFromSiteId(siteId);
  }

  /** Answers whether an account was created. */
  async createSuperadmin(admin: NewSuperadmin): Promise<boolean> {
    const problems = passwordProblems(admin.password, admin.email);
    if (problems.length) throw new Error(`ADMIN_PASSWORD ${problems.join(', ')}`);
    await this.sites.ensureSite(admin.siteId, this.siteName(admin.siteId), null);
    if (await this.accounts.findByEmail(admin.siteId, admin.email)) return false;
    const passwordHash = await this.hasher.hash(admin.password);
    const now = new Date();
    try {
      await this.create(admin, passwordHash, now);
    } catch (error) {
      // Another instance starting at the same moment created it first (scaling out, README).
      if (error instanceof AppException && error.code === 'EMAIL_TAKEN') return false;
      throw error;
    }
    this.logger.log({ site_id: admin.siteId }, 'superadmin created');
    return true;
  }

  private async create(admin: NewSuperadmin, passwordHash: string, now: Date): Promise<void> {
    await this.tx.run(async (manager) => {
      const user = await this.accounts.create(
        {
          site_id: admin.siteId,
          email: admin.email,
          role: 'superadmin',
          signup_source: 'bootstrap',
          password_hash: passwordHash,
          email_verified_at: now,
          has_consented: true,
          data_processing_consent: true,
          consent_given_at: now,
        },
        manager,
      );
      await this.activity.record(
        {
          userId: user.id,
          siteId: user.site_id,
          type: 'role_change',
          description: 'Superadmin created at start-up',
          severity: 'warning',
        },
        NO_REQUEST,
        manager,
      );
    });
  }
}
