import { Injectable } from '@nestjs/common';
import type { AuthUser } from '#app/common/auth/auth-user.js';
import { AppException } from '#app/common/errors/app.exception.js';
import type { RequestMeta } from '#app/common/http/request-meta.js';
import { PointsService } from '#app/modules/rewards/points.service.js';
import { rewardsRules } from '#app/modules/rewards/rewards.rules.js';
import { SitesService } from '#app/modules/sites/sites.service.js';
import { ClaimRefused, ClaimsRepository } from './claims.repository.js';
import { DiscountCodesRepository } from './discount-codes.repository.js';
import { claimRefusal } from './discounts.rules.js';
import type { ClaimResultDto } from './dto/claim.dto.js';

/**
 * `POST /discount-codes/{id}/claim` (DESIGN §6): one transaction in at most four round trips — the
 * claim row with the transaction's start (once per user unless the code allows more), a bulk code's
 * distinct generated code, the points taken and the claim counted (the ledger row and any claim bonus
 * travel with the next statement), and the code's use counter, last, with the commit.
 */
@Injectable()
export class ClaimsService {
  constructor(
    private readonly codes: DiscountCodesRepository,
    private readonly claims: ClaimsRepository,
    private readonly points: PointsService,
    private readonly sites: SitesService,
  ) {}

  async claim(user: AuthUser, id: string, meta: RequestMeta): Promise<ClaimResultDto> {
    // Only a live code of the user's own site: anything else is not there for them.
    const code = await this.codes.findLive(id, user.siteId);
    if (!code || !code.active) throw AppException.notFound('Discount code');
    if (claimRefusal(code, new Date()))
      throw AppException.unprocessable('CODE_NOT_VALID', 'This discount code cannot be claimed now.');
    const rules = rewardsRules(await this.sites.settingsOf(code.site_id));
    const shared = code.is_bulk_code || !code.code_required ? null : code.code;
    try {
      return await this.claims.open(
        {
          siteId: code.site_id,
          codeId: code.id,
          userId: user.id,
          oncePerUser: !code.allow_multiple_claims,
          code: shared,
          pointsSpent: code.points_required,
        },
        async (claimId) => {
          if (!claimId) throw AppException.conflict('ALREADY_CLAIMED', 'You have already claimed this code.');
          // The points first: a claim that cannot pay must never hold a generated code, even for a moment,
          // or a paying claim at the same time finds every code held and is told they are all claimed.
          const spent = await this.points.spendForClaim(
            {
              userId: user.id,
              siteId: code.site_id,
              amount: code.points_required,
              reason: `Claimed discount: ${code.title}`,
              meta,
              details: { discount_code_id: code.id, claim_id: claimId },
            },
            rules,
          );
          if (!spent)
            throw AppException.unprocessable(
              'INSUFFICIENT_POINTS',
              `This needs ${code.points_required} points, more than the balance holds.`,
            );
          const text = code.is_bulk_code
            ? await this.claims.takeUniqueCode(claimId, code.id, user.id)
            : shared;
          if (code.is_bulk_code && text === null) throw new ClaimRefused();
          await this.claims.useAndCommit(code.id, code.points_required);
          return {
            code: text,
            claim_id: claimId,
            points_spent: code.points_required,
            balance: spent.balance,
          };
        },
      );
    } catch (error) {
      // Deleted or switched off while it was being claimed: as it would answer a moment later.
      if (error instanceof ClaimRefused && error.reason === 'CODE_WITHDRAWN')
        throw AppException.notFound('Discount code');
      if (error instanceof ClaimRefused && error.reason === 'PRICE_CHANGED')
        throw AppException.conflict(
          'PRICE_CHANGED',
          'The code’s price changed while it was being claimed; nothing was spent. Look at it again.',
        );
      if (error instanceof ClaimRefused)
        throw AppException.conflict('CODE_USED_UP', 'Every use of this discount code has been claimed.');
      throw error;
    }
  }
}
