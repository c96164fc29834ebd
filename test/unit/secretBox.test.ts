import { randomBytes } from 'node:crypto';
import { decryptSecret, encryptSecret, parseEncryptionKey } from '../../crypto/secretBox';

describe('secret box (AES-256-GCM)', () => {
  const key = randomBytes(32);
  const secret = 'sk-test-0123456789abcdef-秘密';

  it('round-trips a secret and never stores it in the clear', () => {
    const sealed = encryptSecret(key, secret);
    expect(sealed).not.toContain(secret);
    expect(Buffer.from(sealed, 'base64').length).toBe(12 + 16 + Buffer.byteLength(secret, 'utf8'));
    expect(decryptSecret(key, sealed)).toBe(secret);
    expect(decryptSecret(key, encryptSecret(key, ''))).toBe('');
  });

  it('uses a fresh IV for every value', () => {
    const a = encryptSecret(key, secret);
    const b = encryptSecret(key, secret);
    expect(a).not.toBe(b);
    expect(Buffer.from(a, 'base64').subarray(0, 12)).not.toEqual(Buffer.from(b, 'base64').subarray(0, 12));
  });

  it('detects tampering with the ciphertext, the tag or the IV', () => {
    const bytes = Buffer.from(encryptSecret(key, secret), 'base64');
    for (const offset of [0, 12, 28, bytes.length - 1]) {
      const tampered = Buffer.from(bytes);
      tampered[offset] = (tampered[offset] ?? 0) ^ 0x01;
      expect(() => decryptSecret(key, tampered.toString('base64'))).toThrow(/altered|another key/);
    }
    expect(() => decryptSecret(key, bytes.subarray(0, 20).toString('base64'))).toThrow(/malformed/);
    expect(() => decryptSecret(key, 'not base64 at all!')).toThrow(/malformed/);
  });

  it('refuses a value sealed with another key, and keys of the wrong size', () => {
    const sealed = encryptSecret(key, secret);
    expect(() => decryptSecret(randomBytes(32), sealed)).toThrow(/another key/);
    expect(() => encryptSecret(randomBytes(16), secret)).toThrow(/32 bytes/);
  });

  describe('parseEncryptionKey', () => {
    it('accepts 64 hex characters', () => {
      expect(parseEncryptionKey(key.toString('hex'))).toEqual(key);
      expect(parseEncryptionKey(` ${key.toString('hex').toUpperCase()}\n`)).toEqual(key);
    });

    it('accepts base64 of 32 bytes, standard or URL-safe, padded or not', () => {
      expect(parseEncryptionKey(key.toString('base64'))).toEqual(key);
      expect(parseEncryptionKey(key.toString('base64url'))).toEqual(key);
      expect(parseEncryptionKey(key.toString('base64').replace(/=+$/, ''))).toEqual(key);
    });

    it('refuses anything else with a clear message that does not echo the value', () => {
      const wrong = [
        '',
        'too-short',
        randomBytes(16).toString('base64'),
        randomBytes(33).toString('base64'),
        'g'.repeat(64),
        key.toString('hex').slice(2),
      ];
      for (const value of wrong) {
        let message = '';
        try {
          parseEncryptionKey(value);
        } catch (err) {
          message = (err as Error).message;
        }
        expect(message).toMatch(/64 hex characters or as base64/);
        if (value.length > 0) expect(message).not.toContain(value);
      }
    });
  });
});
