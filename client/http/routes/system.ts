import { sql } from 'kysely';
import { z } from 'zod';
import type { ApiContext } from '../context';
import type { Router } from '../router';
import { healthSchema } from '../schemas';

const CHECK_DEADLINE_MS = 2000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export function systemRoutes(router: Router, ctx: ApiContext, openApiDocument: () => Record<string, unknown>): void {
  router.route({
    method: 'GET',
    path: '/healthz',
    operationId: 'health',
    summary: 'Liveness and readiness: Postgres and the Temporal frontend answer',
    tags: ['system'],
    auth: false,
    responses: { 200: { description: 'healthy', schema: healthSchema }, 503: { description: 'a dependency is failing', schema: healthSchema } },
    handler: async ({ reply }) => {
      const [database, temporal] = await Promise.all([
        withTimeout(sql`select 1`.execute(ctx.adapters.db), CHECK_DEADLINE_MS).then(
          () => 'ok' as const,
          () => 'failing' as const,
        ),
        ctx.client.connection
          .withDeadline(Date.now() + CHECK_DEADLINE_MS, () => ctx.client.workflowService.getSystemInfo({}))
          .then(
            () => 'ok' as const,
            () => 'failing' as const,
          ),
      ]);
      const ok = database === 'ok' && temporal === 'ok';
      return reply.code(ok ? 200 : 503).send({ status: ok ? 'ok' : 'degraded', checks: { database, temporal } });
    },
  });

  router.route({
    method: 'GET',
    path: '/metrics',
    operationId: 'metrics',
    summary: "Prometheus metrics of the API, followed by the worker's Temporal Runtime metrics when configured",
    tags: ['system'],
    auth: false,
    responses: { 200: { description: 'Prometheus text format', contentType: 'text/plain', schema: z.string() } },
    handler: async ({ reply }) => {
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
