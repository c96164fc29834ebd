import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database';
import { isAdminSessionRevoked } from '../db/repositories/adminSessions';
import { findActiveApiKey } from '../db/repositories/apiKeys';
import type { AdminSessions } from './adminSessions';
import { verifyApiKey, type Principal } from './apiKeys';
import { ApiError } from './errors';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `authenticate` on every route that needs a user; null elsewhere. */
    principal: Principal | null;
  }
}

/** The admin page's signed session (adminSessions.ts) lives in this HttpOnly, SameSite=Strict cookie. */
export const ADMIN_COOKIE = 'sluice_admin';
/**
 * Cookie-authenticated requests that change state must carry this header. A cross-site page
 * cannot add a custom header without a CORS preflight, which this server never grants.
 */
export const ADMIN_HEADER = 'x-sluice-admin';

const unauthenticated = () =>
  new ApiError(401, 'UNAUTHENTICATED', 'a valid API key is required (Authorization: Bearer <key>)', {
    'www-authenticate': 'Bearer',
  });

export function readCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0) continue;
    if (pair.slice(0, eq).trim() !== name) continue;
    try {
      return decodeURIComponent(pair.slice(eq + 1).trim());
    } catch {
      return null;
    }
  }
  return null;
}

function bearerOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Resolves the caller from a bearer key, or from the admin session cookie (with the CSRF header
 * on writes). A session counts only while its key is still active (revoking a key ends them) and
 * until it is signed out (the sign-out is recorded server-side, so a copied cookie dies with it).
 */
export async function resolvePrincipal(
  db: Kysely<Database>,
  sessions: AdminSessions,
  request: FastifyRequest,
): Promise<Principal | null> {
  const bearer = bearerOf(request);
  if (bearer) return verifyApiKey(db, bearer);
  const cookie = readCookie(request.headers.cookie, ADMIN_COOKIE);
  if (!cookie) return null;
  if (!SAFE_METHODS.has(request.method) && request.headers[ADMIN_HEADER] !== '1') return null;
  const session = sessions.open(cookie);
  if (!session) return null;
  const [key, revoked] = await Promise.all([
    findActiveApiKey(db, session.keyId),
    isAdminSessionRevoked(db, session.sessionId),
  ]);
  return key && !revoked ? { userId: key.user_id, keyId: session.keyId } : null;
}

/** onRequest hook: runs before the body is read, so an unauthenticated upload is refused unread. */
export function authenticate(db: Kysely<Database>, sessions: AdminSessions) {
  return async (request: FastifyRequest): Promise<void> => {
    const principal = await resolvePrincipal(db, sessions, request);
    if (!principal) throw unauthenticated();
    request.principal = principal;
  };
}

export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthenticated();
  return request.principal;
}
