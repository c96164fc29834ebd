import { createAdminSessions } from '../../../api/adminSessions';

const KEY_ID = '0123456789abcdef';
const OTHER_KEY_ID = 'fedcba9876543210';
const SECRET = 'c2x1aWNlLXRlc3Qtc2VjcmV0LWtleS0zMi1ieXRlcyE=';

describe('admin sessions', () => {
  let now = Date.parse('2026-12-01T10:00:00Z');
  const sessions = createAdminSessions({ secret: SECRET, ttlMs: 3_600_000, now: () => now });

  it('signs the key id and an expiry, not the key', () => {
    const value = sessions.issue(KEY_ID);
    expect(value).toMatch(/^v1\.0123456789abcdef\.\d+\.[A-Za-z0-9_-]{11}\.[A-Za-z0-9_-]{43}$/);
    expect(sessions.verify(value)).toBe(KEY_ID);
    // Two sign-ins give two different cookies.
    expect(sessions.issue(KEY_ID)).not.toBe(value);
  });

  it('expires after its time to live', () => {
    const issuedAt = now;
    const value = sessions.issue(KEY_ID);
    now = issuedAt + 3_599_000;
    expect(sessions.verify(value)).toBe(KEY_ID);
    now = issuedAt + 3_601_000;
    expect(sessions.verify(value)).toBeNull();
    now = issuedAt;
  });

  it('refuses any tampering', () => {
    const value = sessions.issue(KEY_ID);
    const [version, keyId, expiry, nonce, signature] = value.split('.') as [string, string, string, string, string];
    const flip = (text: string, at: number) =>
      `${text.slice(0, at)}${text[at] === 'A' ? 'B' : 'A'}${text.slice(at + 1)}`;
    const tampered = [
      [version, OTHER_KEY_ID, expiry, nonce, signature],
      [version, keyId, String(Number(expiry) + 86_400 * 365), nonce, signature],
      [version, keyId, expiry, flip(nonce, 0), signature],
      [version, keyId, expiry, nonce, flip(signature, 0)],
      [version, keyId, expiry, nonce, flip(signature, signature.length - 1)],
      ['v2', keyId, expiry, nonce, signature],
      [version, keyId, expiry, nonce],
    ].map((parts) => parts.join('.'));
    for (const forged of [...tampered, `${value}x`, '', 'sk_0123456789abcdef_secret', `${value}.${signature}`]) {
      expect(sessions.verify(forged)).toBeNull();
    }
  });

  it('refuses a cookie signed with another secret, and a random secret is not shared between processes', () => {
    const other = createAdminSessions({ secret: `${SECRET}x`, ttlMs: 3_600_000, now: () => now });
    expect(sessions.verify(other.issue(KEY_ID))).toBeNull();
    const a = createAdminSessions({ secret: null, ttlMs: 60_000 });
    const b = createAdminSessions({ secret: null, ttlMs: 60_000 });
    expect(a.verify(a.issue(KEY_ID))).toBe(KEY_ID);
    expect(b.verify(a.issue(KEY_ID))).toBeNull();
  });
});
