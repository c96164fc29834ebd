import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isDependencyUnavailable } from '../stores/dependencyUnavailable';

/** How long a client is told to wait when a dependency is down: about a database restart. */
const RETRY_AFTER_SECONDS = '5';

/** An error whose status, code and message are meant for the caller. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const notFound = (what = 'document') => new ApiError(404, 'NOT_FOUND', `${what} not found`);

export interface ErrorBody {
  error: { code: string; message: string; requestId: string };
}

export function errorBody(request: FastifyRequest, code: string, message: string): ErrorBody {
  return { error: { code, message, requestId: String(request.id) } };
}

/**
 * The one place errors become responses. Caller errors keep their code and message; a dependency
 * that is down is a 503; anything else is logged with its stack and answered with a bare 500, so
 * no internals leak out.
 */
export function handleError(
  error: FastifyError | ApiError | Error,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  if (error instanceof ApiError) {
    void reply
      .code(error.statusCode)
      .headers(error.headers)
      .send(errorBody(request, error.code, error.message));
    return;
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    void reply.code(400).send(errorBody(request, 'VALIDATION_FAILED', fastifyError.message));
    return;
  }
  const status = fastifyError.statusCode;
  // Fastify's and the multipart plugin's own 4xx errors (body too large, bad content type,
  // malformed multipart...) carry fixed, safe messages.
  if (typeof status === 'number' && status >= 400 && status < 500) {
    void reply.code(status).send(errorBody(request, fastifyError.code ?? 'BAD_REQUEST', fastifyError.message));
    return;
  }
  if (isDependencyUnavailable(error)) {
    // Postgres, Temporal, the index or the object store is restarting or cut off: the request
    // may succeed later, so it is a 503 with Retry-After, and /healthz names which one is down.
    request.log.warn(
      { errorName: error.name, errorCode: (error as { code?: unknown }).code },
      'dependency unavailable',
    );
    void reply
      .code(503)
      .header('retry-after', RETRY_AFTER_SECONDS)
      .send(errorBody(request, 'DEPENDENCY_UNAVAILABLE', 'a service the API depends on is unavailable; retry later'));
    return;
  }
  request.log.error({ err: error }, 'request failed');
  void reply.code(500).send(errorBody(request, 'INTERNAL', 'internal error'));
}
