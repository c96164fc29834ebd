import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ApiError } from './errors';
import type { Principal } from './apiKeys';
import { principalOf } from './auth';
import { errorResponseSchema } from './schemas';

/**
 * Routes are declared once, with zod schemas. The same schemas become the JSON schemas Fastify
 * validates requests with (and serialises responses with), and the OpenAPI document.
 */

type Maybe = z.ZodType | undefined;
type Out<T extends Maybe> = T extends z.ZodType ? z.output<T> : undefined;

export interface ResponseSpec {
  description: string;
  schema?: z.ZodType;
  /** Defaults to application/json. Other types (SSE, HTML) are documented, not serialised. */
  contentType?: string;
}

export interface RouteContext<P, Q, B> {
  request: FastifyRequest;
  reply: FastifyReply;
  params: P;
  query: Q;
  body: B;
  /** The authenticated caller; only valid on routes with `auth: true`. */
  principal: () => Principal;
}

export interface RouteSpec<P extends Maybe, Q extends Maybe, B extends Maybe> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** OpenAPI-style path: `/v1/documents/{id}`; a literal colon is allowed (`documents:batch`). */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  auth: boolean;
  params?: P;
  querystring?: Q;
  body?: B;
  /**
   * The body is checked by its zod schema alone, without Ajv's type coercion: a body whose values
   * are typed by the caller (metadata, filters) keeps the number 3 apart from the string "3".
   */
  exactBody?: boolean;
  /** A request body that is documented but consumed as a stream (multipart uploads). */
  streamedBody?: { contentType: string; schema: Record<string, unknown>; description: string };
  responses: Record<number, ResponseSpec>;
  /** Left out of the OpenAPI document (the admin page's own routes). */
  hidden?: boolean;
  handler: (ctx: RouteContext<Out<P>, Out<Q>, Out<B>>) => Promise<unknown>;
}

export interface OpenApiOperation {
  method: string;
  path: string;
  auth: boolean;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  parameters: Record<string, unknown>[];
  requestBody?: Record<string, unknown>;
  responses: Record<string, unknown>;
}

/**
 * Ajv in strict mode refuses a `default` it would ignore, which is every default under an anyOf
 * (zod writes a nullable object with defaults inside as one, e.g. a dataset settings section): such
 * defaults are dropped here; the handler's zod parse still applies them.
 */
function withoutDefaultsUnderAnyOf(node: unknown, underAnyOf = false): unknown {
  if (Array.isArray(node)) return node.map((item) => withoutDefaultsUnderAnyOf(item, underAnyOf));
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'default' && underAnyOf) continue;
    out[key] = withoutDefaultsUnderAnyOf(value, underAnyOf || key === 'anyOf' || key === 'oneOf');
  }
  return out;
}

/** Draft-07 for Fastify's Ajv; the `$schema` key is dropped so Ajv does not look it up. */
export function ajvSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { target: 'draft-7', io, unrepresentable: 'any' });
  return withoutDefaultsUnderAnyOf(rest) as Record<string, unknown>;
}

/** OpenAPI 3.1 uses JSON Schema 2020-12. */
export function openApiSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  });
  return rest;
}

/**
 * A zod-only refinement (one JSON Schema cannot state, such as a field bounded by another) that
 * Ajv let through is still the caller's mistake: a 400 naming the field, never a 500.
 */
function parseRequestPart<T extends z.ZodType>(schema: T, value: unknown, part: string): z.output<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => `${[part, ...i.path].join('.')}: ${i.message}`);
  throw new ApiError(400, 'VALIDATION_FAILED', issues.join('; '));
}

export function fastifyPath(path: string): string {
  return path.replace(/:/g, '::').replace(/\{(\w+)\}/g, ':$1');
}

function parametersOf(where: 'path' | 'query', schema: z.ZodType | undefined): Record<string, unknown>[] {
  if (!schema) return [];
  const json = openApiSchema(schema, 'input') as {
    properties?: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    const { description, ...propertySchema } = property;
    return {
      name,
      in: where,
      required: where === 'path' || (json.required ?? []).includes(name),
      ...(description ? { description } : {}),
      schema: propertySchema,
    };
  });
}

export interface Router {
  route<P extends Maybe = undefined, Q extends Maybe = undefined, B extends Maybe = undefined>(
    spec: RouteSpec<P, Q, B>,
  ): void;
  operations(): OpenApiOperation[];
}

export function createRouter(app: FastifyInstance, authenticate: (request: FastifyRequest) => Promise<void>): Router {
  const operations: OpenApiOperation[] = [];
  function route<P extends Maybe, Q extends Maybe, B extends Maybe>(spec: RouteSpec<P, Q, B>): void {
    const response: Record<number, Record<string, unknown>> = {};
    for (const [status, r] of Object.entries(spec.responses)) {
      if (r.schema && (r.contentType ?? 'application/json') === 'application/json')
        response[Number(status)] = ajvSchema(r.schema, 'output');
    }
    app.route({
      method: spec.method,
      url: fastifyPath(spec.path),
      ...(spec.auth ? { onRequest: authenticate } : {}),
      schema: {
        ...(spec.params ? { params: ajvSchema(spec.params, 'input') } : {}),
        ...(spec.querystring ? { querystring: ajvSchema(spec.querystring, 'input') } : {}),
        ...(spec.body ? { body: spec.exactBody ? { type: 'object' } : ajvSchema(spec.body, 'input') } : {}),
        response,
      },
      handler: async (request, reply) => {
        // Ajv has already validated (and coerced) the request against the same schemas; parsing
        // again with zod gives the handler typed values and applies zod-only refinements.
        const ctx = {
          request,
          reply,
          params: spec.params && parseRequestPart(spec.params, request.params, 'params'),
          query: spec.querystring && parseRequestPart(spec.querystring, request.query, 'querystring'),
          body: spec.body && parseRequestPart(spec.body, request.body, 'body'),
          principal: () => principalOf(request),
        } as RouteContext<Out<P>, Out<Q>, Out<B>>;
        return spec.handler(ctx);
      },
    });
    if (spec.hidden) return;
    const responses: Record<string, unknown> = {};
    for (const [status, r] of Object.entries(spec.responses)) {
      const contentType = r.contentType ?? 'application/json';
      responses[status] = {
        description: r.description,
        ...(r.schema ? { content: { [contentType]: { schema: openApiSchema(r.schema, 'output') } } } : {}),
      };
    }
    for (const status of spec.auth ? ['401'] : []) {
      responses[status] ??= {
        description: 'missing or invalid API key',
        content: { 'application/json': { schema: openApiSchema(errorResponseSchema, 'output') } },
      };
    }
    operations.push({
      method: spec.method.toLowerCase(),
      path: spec.path,
      auth: spec.auth,
      operationId: spec.operationId,
      summary: spec.summary,
      description: spec.description,
      tags: spec.tags,
      parameters: [...parametersOf('path', spec.params), ...parametersOf('query', spec.querystring)],
      requestBody: spec.body
        ? { required: true, content: { 'application/json': { schema: openApiSchema(spec.body, 'input') } } }
        : spec.streamedBody
          ? {
              required: true,
              description: spec.streamedBody.description,
              content: { [spec.streamedBody.contentType]: { schema: spec.streamedBody.schema } },
            }
          : undefined,
      responses,
    });
  }
  return { route, operations: () => operations };
}

export function buildOpenApiDocument(
  operations: OpenApiOperation[],
  info: { version: string; serverUrl?: string },
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    paths[op.path] ??= {};
    paths[op.path]![op.method] = {
      operationId: op.operationId,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      tags: op.tags,
      ...(op.parameters.length ? { parameters: op.parameters } : {}),
      ...(op.requestBody ? { requestBody: op.requestBody } : {}),
      responses: op.responses,
      security: op.auth ? [{ bearerAuth: [] }] : [],
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'sluice ingestion API',
      version: info.version,
      description:
        'Upload documents into datasets, follow their ingestion stage by stage, retry or delete them, and search what is indexed. ' +
        "Every route is scoped to the user of the API key: another user's documents do not exist for the caller.",
    },
    ...(info.serverUrl ? { servers: [{ url: info.serverUrl }] } : {}),
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'sk_<id>_<secret>, created with `sluice keys create`',
        },
      },
    },
    paths,
  };
}
