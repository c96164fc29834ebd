import { randomBytes } from 'node:crypto';
import { createCipheriv } from 'node:crypto';
import { decryptSecret, encryptSecret, keyId, parseEncryptionKey, sealedKeyId } from '../../crypto/secretBox';

/** The base64 body of a sealed value (iv ‖ tag ‖ ciphertext), after `s1.<key id>.`. */
const bodyOf = (sealed: string) => Buffer.from(sealed.split('.')[2] ?? '', 'base64');
const withBody = (sealed: string, body: Buffer) =>
  `${sealed.split('.').slice(0, 2).join('.')}.${body.toString('base64')}`;

/** A value sealed the way sluice did before key ids: bare base64(iv ‖ tag ‖ ciphertext). */
function legacySeal(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: 16 });
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64');
}

describe('secret box (AES-256-GCM)', () => {
  const key = randomBytes(32);
  const secret = 'sk-test-0123456789abcdef-秘密';

  it('round-trips a secret and never stores it in the clear', () => {
    const sealed = encryptSecret(key, secret);
    expect(sealed).not.toContain(secret);
    expect(bodyOf(sealed).length).toBe(12 + 16 + Buffer.byteLength(secret, 'utf8'));
    expect(decryptSecret(key, sealed)).toBe(secret);
    expect(decryptSecret(key, encryptSecret(key, ''))).toBe('');
  });

  it('uses a fresh IV for every value', () => {
    const a = encryptSecret(key, secret);
    const b = encryptSecret(key, secret);
    expect(a).not.toBe(b);
    expect(bodyOf(a).subarray(0, 12)).not.toEqual(bodyOf(b).subarray(0, 12));
  });

  it('detects tampering with the ciphertext, the tag or the IV', () => {
    const sealed = encryptSecret(key, secret);
    const bytes = bodyOf(sealed);
    for (const offset of [0, 12, 28, bytes.length - 1]) {
      const tampered = Buffer.from(bytes);
      tampered[offset] = (tampered[offset] ?? 0) ^ 0x01;
      expect(() => decryptSecret(key, withBody(sealed, tampered))).toThrow(/altered|another key/);
    }
    expect(() => decryptSecret(key, withBody(sealed, bytes.subarray(0, 20)))).toThrow(/malformed/);
    expect(() => decryptSecret(key, 'not base64 at all!')).toThrow(/malformed/);
  });

  it('refuses a value sealed with another key, and keys of the wrong size', () => {
    const sealed = encryptSecret(key, secret);
    expect(() => decryptSecret(randomBytes(32), sealed)).toThrow(/another key/);
    expect(() => encryptSecret(randomBytes(16), secret)).toThrow(/32 bytes/);
  });

  it('names its key by id, picks the right key from several, and refuses a key id it was not given', () => {
    const previous = randomBytes(32);
    const sealed = encryptSecret(previous, secret);
    expect(sealed).toMatch(/^s1\.[0-9a-f]{16}\./);
    expect(sealedKeyId(sealed)).toBe(keyId(previous));
    expect(keyId(previous)).not.toBe(keyId(key));
    expect(sealed).not.toContain(previous.toString('hex').slice(0, 16));
    expect(decryptSecret([key, previous], sealed)).toBe(secret);
    expect(() => decryptSecret([key], sealed)).toThrow(new RegExp(`key id ${keyId(previous)}.*another key`));
    expect(() => decryptSecret(key, 's1.zz.AAAA')).toThrow(/malformed/);
  });

  it('still reads values sealed before key ids, with whichever key given sealed them', () => {
    const previous = randomBytes(32);
    const legacy = legacySeal(previous, secret);
    expect(sealedKeyId(legacy)).toBeNull();
    expect(decryptSecret(previous, legacy)).toBe(secret);
    expect(decryptSecret([key, previous], legacy)).toBe(secret);
    expect(() => decryptSecret([key], legacy)).toThrow(/another key/);
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
