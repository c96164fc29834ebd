import fs from 'node:fs';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { revokeAdminSession } from '../../db/repositories/adminSessions';
import { listDatasets, usageOf } from '../../db/repositories/documentCatalog';
import { FILTERS, renderDashboard, renderDocumentRow, renderLogin } from '../admin/page';
import type { AdminSessions } from '../adminSessions';
import { verifyApiKey } from '../apiKeys';
import { ADMIN_COOKIE, readCookie, resolvePrincipal } from '../auth';
import type { ApiContext } from '../context';
import { decodeCursor, encodeCursor, loadDocumentView, loadDocumentViews } from '../documentViews';
import { ApiError } from '../errors';
import type { Router } from '../router';
import { adminSessionBody, datasetIdSchema, documentParams } from '../schemas';

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

function sendHtml(reply: FastifyReply, html: string, status = 200) {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('content-security-policy', CSP)
    .header('x-frame-options', 'DENY')
    .header('cache-control', 'no-store')
    .send(html);
}

/**
 * Secure whenever the browser reached us over TLS: directly, or through a proxy trusted with
 * SLUICE_API_TRUST_PROXY whose X-Forwarded-Proto says https (Fastify's request.protocol).
 */
function sessionCookie(request: FastifyRequest, value: string, maxAge: number): string {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  return `${ADMIN_COOKIE}=${encodeURIComponent(value)}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure}`;
}

function loadAsset(name: string): string {
  return fs.readFileSync(path.join(__dirname, '..', 'admin', name), 'utf8');
}

const pageQuery = z.object({
  dataset: datasetIdSchema.optional(),
  status: z.enum(FILTERS).optional(),
  cursor: z.string().max(200).optional(),
});

/** The admin page: server-rendered HTML, signed in with an API key for a signed, expiring session cookie. */
export function adminRoutes(router: Router, ctx: ApiContext, sessions: AdminSessions): void {
  const { db } = ctx.adapters;
  const assets = {
    'adminApi.js': loadAsset('adminApi.js'),
    'app.js': loadAsset('app.js'),
    'hitTest.js': loadAsset('hitTest.js'),
    'planReview.js': loadAsset('planReview.js'),
    'modelConfigs.js': loadAsset('modelConfigs.js'),
    'sources.js': loadAsset('sources.js'),
    'app.css': loadAsset('app.css'),
  };

  router.route({
    method: 'GET',
    path: '/',
    operationId: 'root',
    summary: 'Redirects to the admin page',
    tags: ['admin'],
    auth: false,
    hidden: true,
    responses: { 302: { description: 'to /admin' } },
    handler: async ({ reply }) => reply.redirect('/admin'),
  });

  router.route({
    method: 'GET',
    path: '/admin',
    operationId: 'adminPage',
    summary: 'The admin page',
    tags: ['admin'],
    auth: false,
    hidden: true,
    querystring: pageQuery,
    responses: { 200: { description: 'HTML', contentType: 'text/html' } },
    handler: async ({ request, reply, query }) => {
      const principal = await resolvePrincipal(db, sessions, request);
      if (!principal) return sendHtml(reply, renderLogin());
      const { userId } = principal;
      const [datasets, usage] = await Promise.all([listDatasets(db, userId), usageOf(db, userId)]);
      const dataset = query.dataset ?? datasets[0]?.datasetId ?? null;
      const after = query.cursor === undefined ? undefined : (decodeCursor(query.cursor) ?? undefined);
      const PAGE = 50;
      const [page, failed] = await Promise.all([
        dataset
          ? loadDocumentViews(db, ctx.config, {
              userId,
              datasetId: dataset,
              status: query.status,
              after,
              limit: PAGE + 1,
            })
          : Promise.resolve({ rows: [], views: [] }),
        loadDocumentViews(db, ctx.config, { userId, status: 'FAILED', lifecycle: 'ACTIVE', limit: 50 }),
      ]);
      const last = page.rows[PAGE - 1];
      return sendHtml(
        reply,
        renderDashboard({
          userId,
          datasets,
          usage: { ...usage, maxDocuments: ctx.config.quota.maxDocuments, maxBytes: ctx.config.quota.maxBytes },
          dataset,
          status: query.status ?? null,
          documents: page.views.slice(0, PAGE),
          nextCursor: page.rows.length > PAGE && last ? encodeCursor(last) : null,
          failed: failed.views,
          maxFileBytes: ctx.config.maxFileBytes,
          batchMaxFiles: ctx.config.api.batchMaxFiles,
        }),
      );
    },
  });

  router.route({
    method: 'GET',
    path: '/admin/rows/{id}',
    operationId: 'adminRow',
    summary: "One document's table row, for live refresh",
    tags: ['admin'],
    auth: true,
    hidden: true,
    params: documentParams,
    querystring: z.object({ showDataset: z.enum(['1']).optional() }),
    responses: { 200: { description: 'HTML fragment', contentType: 'text/html' } },
    handler: async ({ reply, params, query, principal }) => {
      const view = await loadDocumentView(db, ctx.config, principal().userId, params.id);
      if (!view) return sendHtml(reply, '', 404);
      return sendHtml(reply, renderDocumentRow(view, { showDataset: query.showDataset === '1' }));
    },
  });

  router.route({
    method: 'POST',
    path: '/admin/session',
    operationId: 'adminSignIn',
    summary: 'Sign in to the admin page with an API key',
    tags: ['admin'],
    auth: false,
    hidden: true,
    body: adminSessionBody,
    responses: { 204: { description: 'signed in' } },
    handler: async ({ request, reply, body }) => {
      const principal = await verifyApiKey(db, body.apiKey);
      if (!principal) throw new ApiError(401, 'UNAUTHENTICATED', 'this API key is not valid');
      const cookie = sessionCookie(request, sessions.issue(principal.keyId), Math.floor(sessions.ttlMs / 1000));
      return reply.code(204).header('set-cookie', cookie).send();
    },
  });

  router.route({
    method: 'DELETE',
    path: '/admin/session',
    operationId: 'adminSignOut',
    summary: 'Sign out of the admin page',
    tags: ['admin'],
    auth: false,
    hidden: true,
    responses: { 204: { description: 'signed out' } },
    handler: async ({ request, reply }) => {
      // Ends the session on the server too: clearing the cookie alone would leave a copy of it
      // (another tab, a stolen value) valid until it expires.
      const session = sessions.open(readCookie(request.headers.cookie, ADMIN_COOKIE) ?? '');
      if (session) await revokeAdminSession(db, session.sessionId, session.expiresAt);
      return reply
        .code(204)
        .header('set-cookie', sessionCookie(request, '', 0))
        .send();
    },
  });

  for (const [name, type] of [
    ['adminApi.js', 'text/javascript; charset=utf-8'],
    ['app.js', 'text/javascript; charset=utf-8'],
    ['hitTest.js', 'text/javascript; charset=utf-8'],
    ['planReview.js', 'text/javascript; charset=utf-8'],
    ['modelConfigs.js', 'text/javascript; charset=utf-8'],
    ['sources.js', 'text/javascript; charset=utf-8'],
    ['app.css', 'text/css; charset=utf-8'],
  ] as const) {
    router.route({
      method: 'GET',
      path: `/admin/${name}`,
      operationId: `adminAsset_${name}`,
      summary: 'Admin page asset',
      tags: ['admin'],
      auth: false,
      hidden: true,
      responses: { 200: { description: name, contentType: type } },
      handler: async ({ reply }) => reply.type(type).header('cache-control', 'no-cache').send(assets[name]),
    });
  }
}
