import { createHmac, timingSafeEqual } from 'node:crypto';
import { permanentError } from '../contracts/sluiceError';

/** What the MAC covers: a version, so a later form cannot be confused with this one, and the user id. */
const claimMessage = (userId: string) => `sluice:caller-claim:v1:${userId}`;

/**
 * A caller's claim to act for `userId` (docs/workflow-contract.md, the trust model): an HMAC-SHA256
 * of the user id under SLUICE_SECRET_KEY, base64url. The API and the CLI, which hold the key, add
 * it to what they start; a service that holds only namespace access cannot make one.
 */
export function signCallerClaim(userId: string, secret: string): string {
  return createHmac('sha256', secret).update(claimMessage(userId)).digest('base64url');
}

/** True when `claim` is the user's under one of `secrets` (the current key, then the one before a rotation). */
export function callerClaimValid(userId: string, claim: string | undefined, secrets: readonly string[]): boolean {
  if (claim === undefined) return false;
  const given = Buffer.from(claim, 'utf8');
  return secrets.some((secret) => {
    const expected = Buffer.from(signCallerClaim(userId, secret), 'utf8');
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
}

/** The activities' check: with claims required, work for a user starts only under a valid claim. */
export interface CallerClaims {
  required: boolean;
  secrets: readonly string[];
}

export function requireCallerClaim(claims: CallerClaims, userId: string, claim: string | undefined): void {
  if (!claims.required || callerClaimValid(userId, claim, claims.secrets)) return;
  throw permanentError(
    'CALLER_CLAIM_INVALID',
    claim === undefined
      ? `this deployment requires a caller claim for user ${userId} (SLUICE_REQUIRE_CALLER_CLAIM); start work through the API or the CLI`
      : `the caller claim does not match user ${userId}`,
  );
}
