import { createSecretKey, type KeyObject } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { AppConfig } from '#app/config/app-config.js';
import type { AuthUser } from './auth-user.js';
import { signingSecret } from './jwt-keys.rules.js';
import { issuedBeforeSessionsEnded } from './sessions.rules.js';
import { AUTH_USER_LOOKUP, type AuthUserLookup } from './auth-user-lookup.js';
import { Inject } from '@nestjs/common';

export interface AccessTokenClaims {
  sub: string;
  site_id: string;
  role: string;
  jti: string;
  /** When the token was issued, in milliseconds: sessions ended in the same second still end it. */
  iat_ms?: number;
  /** Set by the signer: when the token was issued, in whole seconds. */
  iat?: number;
}

/**
 * Verifies the access token (HS256 only, so `alg: none` and other algorithms are refused) and then
 * re-reads the user, so a deleted user's tokens stop working at once, a role change applies at once, and
 * tokens issued before a password set or reset stop working at once.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(
    config: AppConfig,
    @Inject(AUTH_USER_LOOKUP) private readonly users: AuthUserLookup,
  ) {
    const secrets = [config.jwtSecret, ...config.jwtSecretsPrevious];
    // Key objects made once: handed a string, jsonwebtoken first tries it as a PEM public key on every
    // verification and builds the secret key only after that throws (a tenth of a request's CPU).
    const keys = new Map<string, KeyObject>(secrets.map((s) => [s, createSecretKey(Buffer.from(s))]));
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      // The secret that signed this token, current or (during a rotation) previous; verification itself
      // (signature, algorithm, expiry) stays passport-jwt's.
      // passport-jwt's types name strings and buffers only; it hands the key to jsonwebtoken unchanged,
      // which takes a KeyObject as it is.
      secretOrKeyProvider: (_req: unknown, rawJwt: string, done: (err: null, key: Buffer) => void) =>
        done(null, keys.get(signingSecret(rawJwt, secrets) ?? config.jwtSecret) as unknown as Buffer),
      algorithms: ['HS256'],
      ignoreExpiration: false,
    });
  }

  async validate(claims: AccessTokenClaims): Promise<AuthUser | false> {
    if (typeof claims.sub !== 'string' || typeof claims.jti !== 'string') return false;
    const user = await this.users.findActiveForToken(claims.sub);
    if (!user || issuedBeforeSessionsEnded(claims, user.sessions_valid_from)) return false;
    return { id: user.id, siteId: user.site_id, role: user.role, email: user.email, jti: claims.jti };
  }
}
