import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import type { EntityManager } from 'typeorm';
import type { AccessTokenClaims } from '#app/common/auth/jwt.strategy.js';
import { AppException } from '#app/common/errors/app.exception.js';
import type { RequestMeta } from '#app/common/http/request-meta.js';
import { TransactionRunner } from '#app/infra/database/transaction-runner.js';
import { AccountsService } from '#app/modules/users/accounts.service.js';
import { ActivityLogService } from '#app/modules/users/activity-log.service.js';
import type { User } from '#app/modules/users/entities/user.entity.js';
import { isRaced, TTL } from './auth.rules.js';
import type { TokenPairDto } from './dto/auth.dto.js';
import { RefreshTokensRepository } from './refresh-tokens.repository.js';
import { hashToken, newOpaqueToken } from './token-crypto.js';

/** Access and refresh tokens: issuing, rotating (reuse revokes the family), ending (DESIGN §3). */
@Injectable()
export class SessionService {
  constructor(
    private readonly jwt: JwtService,
    private readonly refreshTokens: RefreshTokensRepository,
    private readonly accounts: AccountsService,
    private readonly activity: ActivityLogService,
    private readonly tx: TransactionRunner,
  ) {}

  async issue(
    user: Pick<User, 'id' | 'site_id' | 'role'>,
    manager?: EntityManager,
    familyId?: string,
  ): Promise<TokenPairDto> {
    const claims: AccessTokenClaims = {
      sub: user.id,
      site_id: user.site_id,
      role: user.role,
      jti: randomUUID(),
      iat_ms: Date.now(),
    };
    const access_token = await this.jwt.signAsync(claims, {
      algorithm: 'HS256',
      expiresIn: TTL.accessSeconds,
    });
    const refresh_token = newOpaqueToken();
    await this.refreshTokens.create(
      {
        user_id: user.id,
        family_id: familyId ?? randomUUID(),
        token_hash: hashToken(refresh_token),
        expires_at: new Date(Date.now() + TTL.refreshDays * 86_400_000),
      },
      manager,
    );
    return { access_token, refresh_token, token_type: 'Bearer', expires_in: TTL.accessSeconds };
  }

  async refresh(refreshToken: string, meta: RequestMeta): Promise<TokenPairDto> {
    // When this request came: a token rotated after it came was rotated by a request running alongside it
    // (two tabs refreshing at once), not before it by someone whose copy this is.
    const now = new Date();
    const tokenHash = hashToken(refreshToken);
    const outcome = await this.tx.run(async (manager) => {
      const row = await this.refreshTokens.findByHash(tokenHash, manager);
      if (!row || row.revoked_at || row.expires_at <= now) return { kind: 'invalid' as const };
      // The user's row first, shared: a logout, password set or deletion revoking this user's sessions waits
      // for the new token to commit and then revokes it too, or commits first and this rotation finds the
      // token revoked (or the user gone) below. Replaces reading the user after rotating: no extra statement.
      const user = await this.accounts.lockForSession(row.user_id, manager);
      if (!user) return { kind: 'invalid' as const };
      const rotated =
        row.rotated_at === null && (await this.refreshTokens.rotate(row.id, new Date(), manager));
      if (!rotated) {
        // Revoked meanwhile (the session was ended while this request waited): not a reuse.
        const current =
          row.rotated_at === null ? await this.refreshTokens.findByHash(tokenHash, manager) : row;
        if (!current || current.revoked_at) return { kind: 'invalid' as const };
        // Rotated by a refresh that was already running when this one came: a race, not a copy. This one
        // loses (the token is spent) and the winner's new token stays good.
        if (current.rotated_at && isRaced(now, current.rotated_at)) return { kind: 'invalid' as const };
        // A rotated token presented again: someone holds a copy. End every session of the family.
        await this.refreshTokens.revokeFamily(row.family_id, now, manager);
        return { kind: 'reused' as const, userId: row.user_id };
      }
      return { kind: 'ok' as const, tokens: await this.issue(user, manager, row.family_id) };
    });
    if (outcome.kind === 'ok') return outcome.tokens;
    if (outcome.kind === 'reused') {
      await this.activity.record(
        {
          userId: outcome.userId,
          siteId: null,
          type: 'refresh_token_reuse',
          description: 'A rotated refresh token was used again; the session family was revoked',
          severity: 'critical',
        },
        meta,
      );
    }
    throw AppException.unauthenticated('The refresh token is not valid.');
  }

  /**
   * Ends the session the token belongs to. Unknown tokens are ignored: logging out is idempotent. The user's
   * row is held first, so a refresh of the same session running now either commits before the revocation
   * (and its new token is revoked with the family) or waits and finds the token revoked.
   */
  async logout(refreshToken: string): Promise<void> {
    const row = await this.refreshTokens.findByHash(hashToken(refreshToken));
    if (!row) return;
    await this.tx.run(async (manager) => {
      await this.accounts.lockForSessionEnd(row.user_id, manager);
      await this.refreshTokens.revokeFamily(row.family_id, new Date(), manager);
    });
  }

  /**
   * Ends every session of the user (password set, deletion) in the caller's transaction: refresh tokens
   * revoked, access tokens issued before now refused from now on (not at their expiry). The row is held
   * first, against refreshes and logins issuing a token at this moment: without it, a token inserted and
   * committed while this `UPDATE` ran survived it.
   */
  async endAllSessions(userId: string, manager: EntityManager): Promise<void> {
    const now = new Date();
    await this.accounts.endSessionsAt(userId, now, manager);
    await this.refreshTokens.revokeAllOf(userId, now, manager);
  }
}
