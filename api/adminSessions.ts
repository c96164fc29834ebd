import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Admin-page sessions: the cookie names the API key (by its public id) and an expiry, signed with
 * HMAC-SHA256, so the browser never holds the key itself and a stolen cookie ends on its own.
 * The cookie alone is not enough: every request also checks that the key is still active, so
 * revoking a key ends its sessions at once.
 *
 * Value: `v1.<keyId>.<expiry, unix seconds>.<nonce>.<signature>`.
 */
export interface AdminSessions {
  readonly ttlMs: number;
  /** A new signed cookie value for this key, valid for `ttlMs`. */
  issue(keyId: string): string;
  /** The key id of an authentic, unexpired value; null for anything else. */
  verify(value: string): string | null;
  /**
   * An authentic, unexpired value's key id, session id (its nonce: what sign-out revokes) and
   * expiry; null for anything else.
   */
  open(value: string): { keyId: string; sessionId: string; expiresAt: Date } | null;
}

const VERSION = 'v1';
const KEY_ID = /^[0-9a-f]{16}$/;
const EXPIRY = /^\d{1,12}$/;
const NONCE = /^[A-Za-z0-9_-]{11}$/;

/**
 * `secret` is SLUICE_SECRET_KEY when set: a key of its own is derived from it (it also encrypts
 * provider keys, and one key should serve one purpose). Without it a random key per process is
 * used: sessions then end when the process restarts and are not valid on another API process.
 */
export function createAdminSessions(options: {
  secret: string | null;
  ttlMs: number;
  now?: () => number;
}): AdminSessions {
  const now = options.now ?? Date.now;
  const signingKey =
    options.secret === null
      ? randomBytes(32)
      : createHmac('sha256', options.secret).update('sluice admin session v1').digest();
  const sign = (payload: string) => createHmac('sha256', signingKey).update(payload).digest();

  return {
    ttlMs: options.ttlMs,
    issue(keyId) {
      if (!KEY_ID.test(keyId)) throw new Error('not an API key id');
      const expiry = Math.ceil((now() + options.ttlMs) / 1000);
      const payload = `${VERSION}.${keyId}.${expiry}.${randomBytes(8).toString('base64url')}`;
      return `${payload}.${sign(payload).toString('base64url')}`;
    },
    verify(value) {
      return this.open(value)?.keyId ?? null;
    },
    open(value) {
      const parts = value.split('.');
      if (parts.length !== 5) return null;
      const [version = '', keyId = '', expiry = '', nonce = '', signature = ''] = parts;
      if (version !== VERSION || !KEY_ID.test(keyId) || !EXPIRY.test(expiry) || !NONCE.test(nonce)) return null;
      // Compared as text: base64url decoding ignores a last character's spare bits.
      const expected = Buffer.from(sign(`${version}.${keyId}.${expiry}.${nonce}`).toString('base64url'));
      const actual = Buffer.from(signature);
      if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return null;
      const expiresAt = Number(expiry) * 1000;
      return expiresAt > now() ? { keyId, sessionId: `${keyId}.${nonce}`, expiresAt: new Date(expiresAt) } : null;
    },
  };
}
