import { randomInt } from 'node:crypto';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { AppException } from '#app/common/errors/app.exception.js';
import {
  type PaymentHead,
  PaymentHooks,
  type RefundedPayment,
} from '#app/modules/payments/hooks/payment-hooks.js';
import { SitesService } from '#app/modules/sites/sites.service.js';
import { type Signup, SignupHooks } from '#app/modules/users/ports/signup-hooks.port.js';
import type { ReferralDto } from './dto/referral.dto.js';
import { toReferralDto } from './referrals.mapper.js';
import { type CancelledReferral, ReferralsRepository } from './referrals.repository.js';
import { normaliseReferralCode, referralCode, selfReferral } from './referrals.rules.js';
import { rewardsRules } from './rewards.rules.js';

/**
 * Referrals (DESIGN §5, §6): each user's code; a signup with it makes a pending referral and pays the
 * referrer's signup bonus; the referee's first successful payment completes it inside that payment's
 * fulfilment and pays the purchase bonus, once; a refund of that payment, or the referee's deletion,
 * cancels it and takes back what it paid.
 */
@Injectable()
export class ReferralsService implements OnModuleInit {
  constructor(
    private readonly referrals: ReferralsRepository,
    private readonly sites: SitesService,
    private readonly signups: SignupHooks,
    private readonly hooks: PaymentHooks,
  ) {}

  onModuleInit(): void {
    this.signups.listen((signup) => this.onSignup(signup));
    this.hooks.listen({
      succeeded: (payment) => this.onPaymentSucceeded(payment),
      refunded: (payment) => this.onPaymentRefunded(payment),
    });
  }

  /** The caller's code on its site, made on first request and stable after (a collision draws again). */
  async codeOf(user: AuthUser): Promise<{ referral_code: string }> {
    const existing = await this.referrals.codeOf(user.id);
    if (existing) return { referral_code: existing };
    for (let attempt = 0; attempt < 5; attempt++) {
      const code = await this.referrals.assignCode(
        user.id,
        user.siteId,
        referralCode((n) => randomInt(n)),
      );
      if (code) return { referral_code: code };
    }
    throw new Error('could not draw a free referral code in 5 attempts');
  }

  async listOf(user: AuthUser, siteId: string, limit: number, cursor?: string): Promise<ReferralDto[]> {
    const rows = await this.referrals.listOf(user.id, siteId, limit, cursor);
    return rows.map(toReferralDto);
  }

  /**
   * In an account deletion's transaction: the referral where the user is the referee is cancelled and
   * its bonuses taken back from the referrer (as a refund does); its own pending referrals are
   * cancelled so that no later purchase pays a deleted account; its completed ones stay as history.
   */
  async accountDeleted(
    userId: string,
  ): Promise<{ asReferee: CancelledReferral[]; pendingAsReferrer: number }> {
    const asReferee = await this.referrals.cancelForReferee(userId, 'referee_deleted');
    const pendingAsReferrer = await this.referrals.cancelPendingOfReferrer(userId, 'referrer_deleted');
    return { asReferee, pendingAsReferrer };
  }

  /** In the registration's transaction: an unknown code refuses the registration (the person can fix it). */
  private async onSignup(signup: Signup): Promise<void> {
    if (!signup.referralCode) return;
    const code = normaliseReferralCode(signup.referralCode);
    const referrer = await this.referrals.referrerByCode(signup.siteId, code);
    if (!referrer)
      throw AppException.unprocessable(
        'REFERRAL_CODE_UNKNOWN',
        'No member of this site has that referral code: check it, or register without one.',
      );
    const self = selfReferral(
      {
        id: referrer.user_id,
        email: referrer.email,
        registeredAt: new Date(referrer.created_at),
        registrationIp: referrer.registration_ip,
      },
      { id: signup.userId, email: signup.email, ip: signup.meta.ip ?? null, at: signup.at },
    );
    const rules = rewardsRules(await this.sites.settingsOf(signup.siteId));
    await this.referrals.recordSignup({
      siteId: signup.siteId,
      referrerId: referrer.user_id,
      refereeId: signup.userId,
      code,
      status: self ? 'cancelled' : 'pending',
      cancelReason: self ? `self_referral:${self}` : null,
      points: self ? 0 : rules.referralSignupPoints,
    });
  }

  /** In the fulfilment's claim transaction, before the counter: one deferred statement, no round trip. */
  private async onPaymentSucceeded(payment: PaymentHead): Promise<void> {
    if (!payment.user_id || payment.amount_cents <= 0) return;
    const rules = rewardsRules(await this.sites.settingsOf(payment.site_id));
    this.referrals.completeLater(payment.user_id, payment.id, rules.referralPurchasePoints);
  }

  /** A refund of the whole payment undoes the referral it completed; a goodwill part-refund does not. */
  private async onPaymentRefunded(payment: RefundedPayment): Promise<void> {
    if (payment.refunded_cents < payment.amount_cents) return;
    await this.referrals.cancelForPayment(payment.id, 'payment_refunded');
  }
}
