import { createHmac } from 'node:crypto';
import { sameBytes } from '#app/common/crypto/constant-time.js';

/**
 * Which of `secrets` signed an HS256 token (compact form `header.payload.signature`), compared in constant
 * time; null when none did. Lets a JWT_SECRET rotation keep accepting tokens signed with the previous
 * secret until they expire (15 minutes), while every new token is signed with the current one.
 */
export function signingSecret(token: string, secrets: readonly string[]): string | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const given = Buffer.from(parts[2], 'base64url');
  for (const secret of secrets) {
    const expected = createHmac('sha256', secret).update(`${parts[0]}.${parts[1]}`).digest();
    if (sameBytes(given, expected)) return secret;
  }
  return null;
}
