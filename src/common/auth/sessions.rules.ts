/**
 * Whether an access token was issued before its user's sessions were ended (a password set or reset): such
 * a token is refused at once rather than at its expiry. The token's `iat_ms` (set when it is issued) says to
 * the millisecond, so a token issued just before the reset is refused even within the same second, and one
 * issued after it works. A token issued before `iat_ms` existed has only `iat`, in whole seconds: it is
 * refused when issued in an earlier second than the reset. A token with neither cannot show it is newer.
 */
export function issuedBeforeSessionsEnded(
  claims: { iat?: unknown; iat_ms?: unknown },
  endedAt: Date | null,
): boolean {
  if (!endedAt) return false;
  if (typeof claims.iat_ms === 'number') return claims.iat_ms < endedAt.getTime();
  if (typeof claims.iat === 'number') return claims.iat < Math.floor(endedAt.getTime() / 1000);
  return true;
}
