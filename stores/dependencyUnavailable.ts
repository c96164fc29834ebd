/**
 * Recognises "the server is not there" in the errors of any driver sluice uses (pg, the
 * Temporal client, the OpenSearch client, the AWS SDK, Node's sockets): a restart, a failover or
 * a network cut, which retrying later cures. The activities classify such an error as
 * DEPENDENCY_UNAVAILABLE (retryable); the API answers 503 for it instead of 500.
 *
 * It looks at fields (SQLSTATE, errno codes, gRPC status, error names), never parses addresses,
 * and follows at most a few `cause` links, so any error object is inspected in bounded time.
 */

// SQLSTATE class 08 (connection exception) and the server shutting down or starting up
// (57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now), 53300 too_many_connections.
const PG_UNAVAILABLE = /^(08...|57P0[123]|53300)$/;
// Node socket and resolver errors.
const NET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);
// What pg says when the socket closed under it, or the pool could not connect in time; what the
// Temporal client says when the frontend did not answer its connect.
const KNOWN_MESSAGES = [
  'Failed to connect before the deadline',
  'Connection terminated unexpectedly',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
];
// The OpenSearch client's and the AWS SDK's names for a request that never reached a server, and
// the Temporal worker's native connection's (a refused or broken gRPC transport).
const CLIENT_ERROR_NAMES = new Set([
  'ConnectionError',
  'NoLivingConnectionsError',
  'TimeoutError',
  'RequestTimeout',
  'TransportError',
]);
// gRPC UNAVAILABLE: the Temporal frontend is down or restarting.
const GRPC_UNAVAILABLE = 14;
const MAX_CAUSES = 5;

function unavailableItself(error: object): boolean {
  const { code, name, message } = error as { code?: unknown; name?: unknown; message?: unknown };
  if (typeof code === 'string' && (PG_UNAVAILABLE.test(code) || NET_CODES.has(code))) return true;
  if (code === GRPC_UNAVAILABLE) return true;
  if (typeof name === 'string' && CLIENT_ERROR_NAMES.has(name)) return true;
  return typeof message === 'string' && KNOWN_MESSAGES.some((m) => message.startsWith(m));
}

export function isDependencyUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth <= MAX_CAUSES && typeof current === 'object' && current !== null; depth++) {
    if (unavailableItself(current)) return true;
    // AggregateError (Node's happy-eyeballs connect) holds one error per address tried.
    const inner = (current as { errors?: unknown }).errors;
    if (
      Array.isArray(inner) &&
      inner.slice(0, MAX_CAUSES).some((e) => typeof e === 'object' && e && unavailableItself(e))
    )
      return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Which server an unavailable-dependency error came from, when its driver says so (SQLSTATE and
 * pg's messages, the OpenSearch client's error names, the AWS SDK's metadata, gRPC UNAVAILABLE);
 * otherwise the port of the socket that failed, which the worker names from its configuration
 * (worker/serverNames.ts); null when neither is known. Bounded like isDependencyUnavailable.
 */
export function unavailableServer(error: unknown): { name: string } | { port: number } | null {
  let current: unknown = error;
  let port: number | null = null;
  for (let depth = 0; depth <= MAX_CAUSES && typeof current === 'object' && current !== null; depth++) {
    const found = serverOf(current);
    if (found !== null) return { name: found };
    port ??= portOf(current);
    const inner = (current as { errors?: unknown }).errors;
    if (Array.isArray(inner))
      for (const e of inner.slice(0, MAX_CAUSES)) if (typeof e === 'object' && e) port ??= portOf(e);
    current = (current as { cause?: unknown }).cause;
  }
  return port === null ? null : { port };
}

const PG_MESSAGES = KNOWN_MESSAGES.filter((m) => !m.startsWith('Failed to connect'));

function serverOf(error: object): string | null {
  const { code, name, message } = error as { code?: unknown; name?: unknown; message?: unknown };
  if (typeof code === 'string' && PG_UNAVAILABLE.test(code)) return 'Postgres';
  if (typeof message === 'string' && PG_MESSAGES.some((m) => message.startsWith(m))) return 'Postgres';
  if (code === GRPC_UNAVAILABLE || (typeof message === 'string' && message.startsWith('Failed to connect')))
    return 'Temporal';
  if ('$metadata' in error) return 'the object store';
  if (name === 'ConnectionError' || name === 'NoLivingConnectionsError') return 'OpenSearch';
  return null;
}

function portOf(error: object): number | null {
  const { port } = error as { port?: unknown };
  return typeof port === 'number' && Number.isInteger(port) ? port : null;
}
