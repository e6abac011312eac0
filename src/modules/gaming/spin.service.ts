import { SignupHooks } from '#app/modules/users/ports/signup-hooks.port.js';
import { randomInt, randomUUID } from 'node:crypto';
import { HttpStatus, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { AppException } from '#app/common/errors/app.exception.js';
import { AppConfig } from '#app/config/app-config.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { EntryCredits } from '#app/modules/raffles/ports/entry-credits.port.js';
import { SitesService } from '#app/modules/sites/sites.service.js';
import type { SpinClaimedDto, SpinResultDto } from './dto/spin.dto.js';
import { GamingRepository } from './gaming.repository.js';
import {
  DEFAULT_WHEEL,
  parseWheel,
  pickSegment,
  signSpinToken,
  SPIN_TOKEN_TTL_SECONDS,
  type SpinTokenPayload,
  spinTokenKey,
  verifySpinToken,
  type Wheel,
} from './spin.rules.js';

/** `randomInt`'s widest range: a uniform number in [0, 1) with 48 bits from the CSPRNG. */
const RANDOM_RANGE = 2 ** 48 - 1;

/**
 * The spin wheel (DESIGN §6): spins signed by a key of its own, claims that spend each token once and
 * give each user one reward, and the bonus entry credits won — lent to raffle entries through the
 * `EntryCredits` port, after a membership's.
 */
@Injectable()
export class SpinService implements OnModuleInit {
  private readonly logger = new Logger(SpinService.name);
  private readonly key: Buffer;
  private readonly previousKeys: Buffer[];

  constructor(
    private readonly repo: GamingRepository,
    private readonly sites: SitesService,
    private readonly credits: EntryCredits,
    private readonly tx: TransactionRunner,
    private readonly signups: SignupHooks,
    config: AppConfig,
  ) {
    this.key = spinTokenKey(config.secretsKey);
    this.previousKeys = config.secretsKeysPrevious.map(spinTokenKey);
  }

  onModuleInit(): void {
    this.credits.provide(
      'bonus',
      { take: (req) => this.repo.take(req.userId, req.siteId, req.quantity) },
      20,
    );
    // A spin token given at registration is claimed in its transaction: a bad or spent one refuses the
    // registration (nothing is created) rather than leaving an account without its reward.
    this.signups.listen(async (signup) => {
      if (!signup.spinToken) return;
      await this.redeem(this.checkToken(signup.spinToken, signup.siteId, signup.at), signup.userId);
    });
  }

  /** Endpoint 19: a crypto-random segment of the site's wheel, and a token that proves it. */
  async spin(siteId: string, now = new Date()): Promise<SpinResultDto> {
    const site = await this.sites.requireSite(siteId);
    const segment = pickSegment(
      this.wheelOf(site.site_id, site.additional_settings),
      randomInt(RANDOM_RANGE) / 2 ** 48,
    );
    const exp = Math.floor(now.getTime() / 1000) + SPIN_TOKEN_TTL_SECONDS;
    const payload: SpinTokenPayload = {
      v: 1,
      site: site.site_id,
      seg: segment.id,
      credits: segment.credits,
      jti: randomUUID(),
      exp,
    };
    return {
      credits_won: segment.credits,
      segment_id: segment.id,
      expires_at: new Date(exp * 1000).toISOString(),
      token: signSpinToken(payload, this.key),
    };
  }

  /** `POST /gaming/spin/claim`: the signed-in user claims a spin result of its own site. */
  async claim(user: AuthUser, token: string): Promise<SpinClaimedDto> {
    const payload = this.checkToken(token, user.siteId);
    return this.tx.run(() => this.redeem(payload, user.id));
  }

  /**
   * A token's payload when it is genuine, unexpired and for `siteId`; else the refusal (422 invalid or
   * expired, 403 another site's). Whether it is still unclaimed only the claim itself can tell.
   */
  checkToken(token: string, siteId: string, now = new Date()): SpinTokenPayload {
    // During a SECRETS_KEY rotation a token signed under the previous key still counts (24 h at most).
    let checked = verifySpinToken(token, this.key, now);
    for (const key of this.previousKeys)
      if (!checked.ok && checked.reason === 'invalid') checked = verifySpinToken(token, key, now);
    if (!checked.ok) {
      if (checked.reason === 'expired')
        throw AppException.unprocessable(
          'SPIN_TOKEN_EXPIRED',
          'This spin result has expired: spin results are claimable for 24 hours.',
        );
      throw AppException.unprocessable('SPIN_TOKEN_INVALID', 'This is not a valid spin token.');
    }
    if (checked.payload.site !== siteId)
      throw new AppException(
        HttpStatus.FORBIDDEN,
        'SPIN_TOKEN_OTHER_SITE',
        'This spin result belongs to another site.',
      );
    return checked.payload;
  }

  /**
   * Records the claim and grants its credits, in the ambient transaction (a registration's, or the
   * claim's own). The database decides both conflicts: 409 when the token is spent or the user already
   * holds a spin reward.
   */
  async redeem(payload: SpinTokenPayload, userId: string): Promise<SpinClaimedDto> {
    return this.tx.run(async () => {
      const recorded = await this.repo.insertClaim({
        jti: payload.jti,
        siteId: payload.site,
        userId,
        segmentId: payload.seg,
        credits: payload.credits,
      });
      if (!recorded) {
        if (await this.repo.isClaimed(payload.jti))
          throw AppException.conflict('SPIN_ALREADY_CLAIMED', 'This spin result has already been claimed.');
        throw AppException.conflict('SPIN_REWARD_TAKEN', 'You have already claimed a spin reward.');
      }
      const bonus = await this.repo.grant(userId, payload.site, payload.credits);
      return { credits_won: payload.credits, bonus_credits: bonus };
    });
  }

  /** The site's wheel; a misconfigured one falls back to the default (and says so in the log). */
  private wheelOf(siteId: string, settings: Record<string, unknown>): Wheel {
    const parsed = parseWheel(settings);
    if (parsed.wheel) return parsed.wheel;
    this.logger.warn(
      { siteId, problems: parsed.problems },
      'invalid additional_settings.spin: default wheel used',
    );
    return DEFAULT_WHEEL;
  }
}
