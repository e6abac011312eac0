import { Injectable } from '@nestjs/common';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { AppException } from '#app/common/errors/app.exception.js';
import type { RequestMeta } from '#app/common/http/request-meta.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { SitesService } from '#app/modules/sites/sites.service.js';
import { AccountsService } from '#app/modules/users/accounts.service.js';
import { ActivityLogService } from '#app/modules/users/activity-log.service.js';

export interface Buyer {
  userId: string;
  email: string;
  /**
   * The buyer has no way in yet: the account was made by this purchase (a guest), or earlier without a password
   * that was never set since (an earlier guest checkout, even one that failed). Its purchase e-mail carries the
   * link to choose one (`purchase_new`).
   */
  newAccount: boolean;
}

export interface BuyerClaim {
  siteId: string;
  email?: string;
  name?: string;
  /** A body `user_id`: only a hint that must agree (DESIGN §10). */
  userIdHint?: string;
}

/**
 * Who is buying (DESIGN §10): a valid token names the buyer; without one, `customer_email` on the site
 * names the account or creates it (a guest purchase, `signup_source: "purchase"`, no password yet). A
 * body `user_id` never decides: one that disagrees is refused. A site that does not exist is 404 UNKNOWN_SITE.
 */
@Injectable()
export class BuyersService {
  constructor(
    private readonly accounts: AccountsService,
    private readonly activity: ActivityLogService,
    private readonly sites: SitesService,
    private readonly tx: TransactionRunner,
  ) {}

  async resolve(caller: AuthUser | undefined, claim: BuyerClaim, meta: RequestMeta): Promise<Buyer> {
    if (caller) {
      if (caller.siteId !== claim.siteId && caller.role !== 'superadmin')
        throw AppException.forbidden('You may not buy on another site.');
      if (claim.userIdHint && claim.userIdHint !== caller.id) throw mismatch();
      return { userId: caller.id, email: caller.email, newAccount: false };
    }
    if (!claim.email)
      throw AppException.validation([
        { field: 'customer_email', message: 'customer_email is required without a token' },
      ]);
    // A token's site exists; a body's may not: no account (nor payment) on a site that is not there.
    await this.sites.requireSite(claim.siteId);
    const existing = await this.accounts.findByEmail(claim.siteId, claim.email);
    if (existing) {
      if (claim.userIdHint && claim.userIdHint !== existing.id) throw mismatch();
      const newAccount = await this.accounts.awaitsPassword(existing.id);
      return { userId: existing.id, email: existing.email, newAccount };
    }
    if (claim.userIdHint) throw mismatch();
    const email = claim.email;
    try {
      const user = await this.tx.run(async (manager) => {
        const made = await this.accounts.create(
          {
            site_id: claim.siteId,
            email,
            name: claim.name ?? null,
            role: 'user',
            signup_source: 'purchase',
            password_hash: null,
            data_processing_consent: true,
          },
          manager,
        );
        await this.activity.record(
          {
            userId: made.id,
            siteId: made.site_id,
            type: 'register',
            description: 'Account made by a guest purchase',
          },
          meta,
          manager,
        );
        return made;
      });
      return { userId: user.id, email: user.email, newAccount: true };
    } catch (error) {
      // A parallel guest order for the same address made it first: buy for that account.
      if (error instanceof AppException && error.code === 'EMAIL_TAKEN') {
        const made = await this.accounts.findByEmail(claim.siteId, email);
        if (made) return { userId: made.id, email: made.email, newAccount: true };
      }
      throw error;
    }
  }
}

function mismatch(): AppException {
  return AppException.unprocessable('USER_MISMATCH', 'user_id does not match the buyer.');
}
