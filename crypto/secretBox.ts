import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (DESIGN.md §5, embedding_configs.api_key_encrypted): AES-256-GCM with a random
 * 96-bit IV per value, sealed as base64(iv(12) ‖ tag(16) ‖ ciphertext). The tag authenticates the
 * ciphertext, so a value that was altered, or sealed under another key, is refused.
 */

const ALGORITHM = 'aes-256-gcm';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBoxError extends Error {
  override readonly name = 'SecretBoxError';
}

function assertKey(key: Buffer): void {
  if (key.length !== KEY_BYTES)
    throw new SecretBoxError(`encryption key must be ${KEY_BYTES} bytes, got ${key.length}`);
}

export function encryptSecret(key: Buffer, plain: string): string {
  assertKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64');
}

export function decryptSecret(key: Buffer, sealed: string): string {
  assertKey(key);
  const bytes = Buffer.from(sealed, 'base64');
  // Buffer.from ignores characters outside the alphabet; a value that does not re-encode to
  // itself was not produced by encryptSecret.
  if (bytes.length < IV_BYTES + TAG_BYTES || bytes.toString('base64') !== sealed) {
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
