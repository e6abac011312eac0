/**
 * Whether an access token was issued before its user's sessions were ended (a password set or reset): such
 * a token is refused at once rather than at its expiry. `iat` counts whole seconds, so the comparison does
 * too: a token issued in the second the sessions ended, before it, still works until it expires, and one
 * issued just after it (a sign-in in that second) works. A token without `iat` cannot show it is newer.
 */
export function issuedBeforeSessionsEnded(iat: unknown, endedAt: Date | null): boolean {
  if (!endedAt) return false;
  if (typeof iat !== 'number') return true;
  return iat < Math.floor(endedAt.getTime() / 1000);
}
