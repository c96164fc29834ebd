import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import multipart from '@fastify/multipart';
import type { Client } from '@temporalio/client';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { SluiceConfig } from '../config/config';
import { packageRoot } from '../config/packageRoot';
import type { Adapters } from '../composition/adapters';
import { createAdminSessions } from './adminSessions';
import { authenticate } from './auth';
import type { ApiContext } from './context';
import { errorBody, handleError } from './errors';
import { createApiMetrics, type ApiMetrics } from './metrics';
import { buildOpenApiDocument, createRouter } from './router';
import { adminRoutes } from './routes/admin';
import { documentRoutes } from './routes/documents';
import { datasetRoutes } from './routes/datasets';
import { embeddingRoutes } from './routes/embedding';
import { modelConfigRoutes } from './routes/modelConfigs';
import { rebuildRoutes } from './routes/rebuild';
import { replaceContentRoutes } from './routes/replaceContent';
import { sourceRoutes } from './routes/sources';
import { planRoutes } from './routes/plan';
import { eventRoutes } from './routes/events';
import { hitTestRoutes } from './routes/hitTest';
import { searchRoutes } from './routes/search';
import { systemRoutes } from './routes/system';
import { uploadRoutes } from './routes/uploads';
import { createTenantLimiter } from './tenantLimiter';

export interface ApiServerDeps {
  config: Readonly<SluiceConfig>;
  adapters: Adapters;
  client: Client;
}

export interface ApiServer {
  app: FastifyInstance;
  metrics: ApiMetrics;
}

function packageVersion(): string {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

const LOG_LEVELS = { DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error' } as const;

/**
 * The HTTP API. It stores uploads, starts and signals workflows and reads state; parsing,
 * embedding and indexing happen in the worker only.
 */
export async function buildApiServer(
  deps: ApiServerDeps,
  options: { logger?: FastifyServerOptions['logger'] } = {},
): Promise<ApiServer> {
  const { config } = deps;
  const { requestTimeoutMs, idleTimeoutMs } = config.api;
  const app = Fastify({
    logger: options.logger ?? { level: LOG_LEVELS[config.logLevel] },
    bodyLimit: config.api.bodyLimitBytes,
    http: {
      maxHeaderSize: config.api.maxHeaderBytes,
      // Node rejects a headers timeout longer than the request timeout.
      headersTimeout: Math.min(60_000, requestTimeoutMs),
      // Node looks for expired requests this often (30 s by default): a fraction of the timeout,
      // so a dripping request is cut close to its deadline.
      connectionsCheckingInterval: Math.min(30_000, Math.max(250, Math.floor(requestTimeoutMs / 4))),
    },
    // A body that drips in (a byte now and then) is cut at requestTimeout; a silent connection
    // at the idle timeout. Both answer slow clients that would otherwise hold a socket forever.
    requestTimeout: requestTimeoutMs,
    connectionTimeout: idleTimeoutMs,
    trustProxy: config.api.trustProxy,
    genReqId: () => randomUUID(),
    // Never trust a caller-chosen request id.
    requestIdHeader: false,
    // Open SSE streams must not hold a shutdown up.
    forceCloseConnections: true,
    return503OnClosing: true,
    // Fastify's Ajv drops unknown properties by default; a strict request schema (a settings
    // document) must refuse a misspelt field instead of storing the rest as if it were all.
    ajv: { customOptions: { removeAdditional: false } },
  });
  const metrics = createApiMetrics({ workerMetricsUrl: config.metrics.workerUrl });
  const sessions = createAdminSessions({ secret: config.api.sessionSecret, ttlMs: config.api.sessionTtlMs });
  if (!config.api.sessionSecret) {
    app.log.warn(
      'SLUICE_SECRET_KEY is not set: admin sessions are signed with a random per-process secret (they end when the API restarts and are not shared between API processes)',
    );
  }
  const ctx: ApiContext = {
    config,
    adapters: deps.adapters,
    client: deps.client,
    metrics,
    limiters: {
      searches: createTenantLimiter('searches', 'SLUICE_API_MAX_CONCURRENT_SEARCHES', config.api.perUser.searches),
      providerTests: createTenantLimiter(
        'provider tests',
        'SLUICE_API_MAX_CONCURRENT_PROVIDER_TESTS',
        config.api.perUser.providerTests,
      ),
    },
  };

  app.decorateRequest('principal', null);
  await app.register(multipart, { throwFileSizeLimit: false, limits: { fileSize: config.maxFileBytes + 1, files: 1 } });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', String(request.id));
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
  });
  app.addHook('onSend', async (request, reply) => {
    // A response sent before the body was read (a refused upload) closes the connection, so
    // the server neither reads the rest nor has to drain it for keep-alive.
    if (!request.raw.complete) reply.header('connection', 'close');
  });
  app.addHook('onResponse', async (request, reply) => {
    metrics.httpDuration.observe(
      { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request, reply) => {
    void reply.code(404).send(errorBody(request, 'NOT_FOUND', 'no such route'));
  });

  const router = createRouter(app, authenticate(deps.adapters.db, sessions));
  let openApi: Record<string, unknown> | null = null;
  const openApiDocument = () => (openApi ??= buildOpenApiDocument(router.operations(), { version: packageVersion() }));

  systemRoutes(router, ctx, openApiDocument);
  uploadRoutes(router, ctx);
  documentRoutes(router, ctx);
  eventRoutes(router, ctx);
  searchRoutes(router, ctx);
  hitTestRoutes(router, ctx);
  embeddingRoutes(router, ctx);
  modelConfigRoutes(router, ctx);
  datasetRoutes(router, ctx);
  rebuildRoutes(router, ctx);
  replaceContentRoutes(router, ctx);
  sourceRoutes(router, ctx);
  planRoutes(router, ctx);
  adminRoutes(router, ctx, sessions);

  await app.ready();
  return { app, metrics };
}
