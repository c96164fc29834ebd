import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (docs/design.md §5, embedding_configs.api_key_encrypted): AES-256-GCM with a random
 * 96-bit IV per value, sealed as `s1.<key id>.<base64(iv(12) ‖ tag(16) ‖ ciphertext)>`. The tag
 * authenticates the ciphertext, so a value that was altered, or sealed under another key, is
 * refused. The key id names the key that sealed the value, so SLUICE_SECRET_KEY can be rotated
 * (`sluice secrets rotate`): a reader given several keys picks the right one, and the rotation
 * knows which values are still under an old key. Values sealed before key ids (bare base64) are
 * still read, by trying each key given.
 */

const ALGORITHM = 'aes-256-gcm';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const PREFIX = 's1';
const SEALED = /^s1\.([0-9a-f]{16})\.([A-Za-z0-9+/=]*)$/;

export class SecretBoxError extends Error {
  override readonly name = 'SecretBoxError';
}

function assertKey(key: Buffer): void {
  if (key.length !== KEY_BYTES)
    throw new SecretBoxError(`encryption key must be ${KEY_BYTES} bytes, got ${key.length}`);
}

/**
 * A key's public name: 8 bytes of an HMAC of a fixed label under the key. It identifies the key
 * without revealing anything that helps recover it.
 */
export function keyId(key: Buffer): string {
  assertKey(key);
  return createHmac('sha256', key).update('sluice secret key id').digest().subarray(0, 8).toString('hex');
}

/** The key id a sealed value names; null for a value sealed before key ids. */
export function sealedKeyId(sealed: string): string | null {
  return SEALED.exec(sealed)?.[1] ?? null;
}

export function encryptSecret(key: Buffer, plain: string): string {
  assertKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `${PREFIX}.${keyId(key)}.${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64')}`;
}

function open(key: Buffer, body: string): string {
  const bytes = Buffer.from(body, 'base64');
  // Buffer.from ignores characters outside the alphabet; a value that does not re-encode to
  // itself was not produced by encryptSecret.
  if (bytes.length < IV_BYTES + TAG_BYTES || bytes.toString('base64') !== body) {
    throw new SecretBoxError('sealed secret is malformed');
  }
  const decipher = createDecipheriv(ALGORITHM, key, bytes.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretBoxError('sealed secret failed authentication: it was altered, or sealed with another key');
  }
}

/** Unseals with the key the value names among `keys` (the current key first, then previous ones). */
export function decryptSecret(keys: Buffer | readonly Buffer[], sealed: string): string {
  const ring = Buffer.isBuffer(keys) ? [keys] : keys;
  ring.forEach(assertKey);
  const named = SEALED.exec(sealed);
  if (named) {
    const key = ring.find((candidate) => keyId(candidate) === named[1]);
    if (!key)
      throw new SecretBoxError(
        `sealed secret is under key id ${named[1]}, which is not a configured key: it was sealed with another key`,
      );
    return open(key, named[2] ?? '');
  }
  if (sealed.startsWith(`${PREFIX}.`)) throw new SecretBoxError('sealed secret is malformed');
  let failure: unknown = new SecretBoxError('no key given');
  for (const key of ring) {
    try {
      return open(key, sealed);
    } catch (error) {
      failure = error;
    }
  }
  throw failure;
}

/**
 * Reads the 32-byte key from configuration: 64 hex characters, or base64 (standard or URL-safe,
 * padding optional) of exactly 32 bytes, e.g. the output of `openssl rand -base64 32`. The
 * message of a refused value never contains the value.
 */
export function parseEncryptionKey(value: string): Buffer {
  const text = value.trim();
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) {
    const bytes = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    const canonical = bytes.toString('base64').replace(/=+$/, '');
    if (bytes.length === KEY_BYTES && canonical === text.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, ''))
      return bytes;
  }
  throw new SecretBoxError(
    `encryption key must be ${KEY_BYTES} bytes given as 64 hex characters or as base64 (e.g. \`openssl rand -base64 32\`); ` +
      `the value given has ${text.length} characters and is neither`,
  );
}
