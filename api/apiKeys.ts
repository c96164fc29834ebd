import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database';
import { ensureUser, findActiveApiKey, insertApiKey, touchApiKey } from '../db/repositories/apiKeys';

/**
 * API keys look like `sk_<id>_<secret>`. The id is the public lookup handle; the secret is 256
 * random bits stored only as its SHA-256. A slow password hash would add nothing for a secret
 * of that entropy, and a fast one keeps authentication off the CPU's critical path.
 */
const KEY_PATTERN = /^sk_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

export interface IssuedKey {
  keyId: string;
  userId: string;
  /** The full key: shown once, never stored. */
  apiKey: string;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export async function issueApiKey(
  db: Kysely<Database>,
  userId: string,
  label: string | null = null,
): Promise<IssuedKey> {
  const keyId = randomBytes(8).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  await insertApiKey(db, { id: keyId, userId, label, secretSha256: sha256(secret) });
  return { keyId, userId, apiKey: `sk_${keyId}_${secret}` };
}

/** Creates the user if needed and a first key for it. */
export async function createUserWithKey(
  db: Kysely<Database>,
  userId: string,
  options: { displayName?: string | null; label?: string | null } = {},
): Promise<IssuedKey> {
  await ensureUser(db, { id: userId, displayName: options.displayName ?? null });
  return issueApiKey(db, userId, options.label ?? null);
}

export interface Principal {
  userId: string;
  keyId: string;
}

/** The key's user, or null for a malformed, unknown, revoked or wrong key. */
export async function verifyApiKey(db: Kysely<Database>, apiKey: string): Promise<Principal | null> {
  const match = KEY_PATTERN.exec(apiKey);
  if (!match) return null;
  const [, keyId = '', secret = ''] = match;
  const row = await findActiveApiKey(db, keyId);
  if (!row) return null;
  const expected = Buffer.from(row.secret_sha256, 'hex');
  const actual = Buffer.from(sha256(secret), 'hex');
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return null;
  // Bookkeeping only: a failure to record use must not fail the request.
  touchApiKey(db, keyId).catch(() => undefined);
  return { userId: row.user_id, keyId };
}
