import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ApiContext } from '../context';
import { checkDependencies } from '../health/dependencyChecks';
import { ApiError } from '../errors';
import type { Router } from '../router';
import { errorResponseSchema, healthSchema } from '../schemas';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** /metrics is off without SLUICE_METRICS_TOKEN; with it, only `Authorization: Bearer <token>` is let in. */
function checkMetricsToken(request: FastifyRequest, token: string | null): void {
  if (token === null) throw new ApiError(404, 'NOT_FOUND', 'metrics are off (set SLUICE_METRICS_TOKEN)');
  const match = /^Bearer ([\x21-\x7e]{1,512})$/.exec(request.headers.authorization ?? '');
  // Hashes have one length, so the comparison takes the same time whatever was sent.
  if (!match?.[1] || !timingSafeEqual(digest(match[1]), digest(token))) {
    throw new ApiError(
      401,
      'UNAUTHENTICATED',
      'the metrics token is required (Authorization: Bearer <SLUICE_METRICS_TOKEN>)',
      { 'www-authenticate': 'Bearer' },
    );
  }
}

export function systemRoutes(router: Router, ctx: ApiContext, openApiDocument: () => Record<string, unknown>): void {
  router.route({
    method: 'GET',
    path: '/healthz',
    operationId: 'health',
    summary: 'Liveness and readiness: Postgres, the Temporal frontend, the keyword index and the object store answer',
    tags: ['system'],
    auth: false,
    responses: {
      200: { description: 'healthy', schema: healthSchema },
      503: { description: 'a dependency is failing; `down` names it', schema: healthSchema },
    },
    handler: async ({ reply }) => {
      const { checks, down } = await checkDependencies(ctx.adapters, ctx.client);
      const ok = down.length === 0;
      return reply.code(ok ? 200 : 503).send({ status: ok ? 'ok' : 'degraded', checks, down });
    },
  });

  router.route({
    method: 'GET',
    path: '/metrics',
    operationId: 'metrics',
    summary: "Prometheus metrics of the API, followed by the worker's Temporal Runtime metrics when configured",
    description:
      'Off unless SLUICE_METRICS_TOKEN is set; then it needs `Authorization: Bearer <SLUICE_METRICS_TOKEN>` (not an API key). ' +
      'The worker metrics are scraped at most every 5 s.',
    tags: ['system'],
    auth: false,
    responses: {
      200: { description: 'Prometheus text format', contentType: 'text/plain', schema: z.string() },
      401: { description: 'missing or wrong metrics token', schema: errorResponseSchema },
      404: { description: 'metrics are off', schema: errorResponseSchema },
    },
    handler: async ({ request, reply }) => {
      checkMetricsToken(request, ctx.config.metrics.token);
      const { contentType, body } = await ctx.metrics.render();
      return reply.type(contentType).send(body);
    },
  });

  router.route({
    method: 'GET',
    path: '/openapi.json',
    operationId: 'openapi',
    summary: 'This document',
    tags: ['system'],
    auth: false,
    responses: { 200: { description: 'OpenAPI 3.1', contentType: 'application/json' } },
    handler: async () => openApiDocument(),
  });
}
