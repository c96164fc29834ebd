import { errors as openSearchErrors } from '@opensearch-project/opensearch';
import { ServiceError } from '@temporalio/client';
import { DatabaseError } from 'pg';
import { toApplicationFailure } from '../../activities/toApplicationFailure';
import { isDependencyUnavailable, unavailableServer } from '../../stores/dependencyUnavailable';
import { serverNamesByPort } from '../../worker/serverNames';
import { loadConfig } from '../../config/config';

function pgError(code: string, message: string): DatabaseError {
  const error = new DatabaseError(message, message.length, 'error');
  error.code = code;
  return error;
}

const socketError = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code });

describe('isDependencyUnavailable', () => {
  it.each([
    ['Postgres shut down by an operator', pgError('57P01', 'terminating connection due to administrator command')],
    ['Postgres crashed', pgError('57P02', 'terminating connection due to crash of another server process')],
    ['Postgres starting up', pgError('57P03', 'the database system is starting up')],
    ['a connection exception', pgError('08006', 'connection failure')],
    ['a refused connection', socketError('ECONNREFUSED')],
    ['a reset connection', socketError('ECONNRESET')],
    ['pg after the socket closed', new Error('Connection terminated unexpectedly')],
    ['pg on a broken client', new Error('Client has encountered a connection error and is not queryable')],
    ['the pool waiting in vain', new Error('timeout exceeded when trying to connect')],
    ['every address refused', new AggregateError([socketError('ECONNREFUSED'), socketError('ECONNREFUSED')], 'x')],
    [
      'the Temporal frontend down',
      new ServiceError('Failed to start', { cause: Object.assign(new Error('14 UNAVAILABLE'), { code: 14 }) }),
    ],
    ['the Temporal client connecting in vain', new Error('Failed to connect before the deadline')],
    ['the worker connection refused', Object.assign(new Error('tcp connect error'), { name: 'TransportError' })],
    ['OpenSearch unreachable', new openSearchErrors.ConnectionError('connect ECONNREFUSED', undefined)],
    ['wrapped in a cause', new Error('store call failed', { cause: socketError('ECONNREFUSED') })],
  ])('recognises %s', (_, error) => {
    expect(isDependencyUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', pgError('23505', 'duplicate key value violates unique constraint')],
    ['a syntax error', pgError('42601', 'syntax error at or near "selec"')],
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'x')")],
    ['a Temporal refusal', new ServiceError('denied', { cause: Object.assign(new Error('7'), { code: 7 }) })],
    ['not an error', 'ECONNREFUSED'],
    ['null', null],
  ])('leaves %s alone', (_, error) => {
    expect(isDependencyUnavailable(error)).toBe(false);
  });

  it('follows a bounded cause chain, even a cyclic one', () => {
    const a: Error & { cause?: unknown } = new Error('a');
    const b = new Error('b', { cause: a });
    a.cause = b;
    expect(isDependencyUnavailable(a)).toBe(false);
  });
});

describe('toApplicationFailure of a dependency outage', () => {
  it('is DEPENDENCY_UNAVAILABLE, retryable, and its message names no host', () => {
    const failure = toApplicationFailure(socketError('ECONNREFUSED'));
    expect(failure.type).toBe('DEPENDENCY_UNAVAILABLE');
    expect(failure.nonRetryable).toBe(false);
    expect(failure.message).not.toMatch(/127\.0\.0\.1|5432/);
  });

  it('keeps an unclassified bug INTERNAL_UNKNOWN_ERROR', () => {
    expect(toApplicationFailure(new TypeError('x')).type).toBe('INTERNAL_UNKNOWN_ERROR');
  });
});

describe('which server an outage is of', () => {
  it('names the server its driver says, else gives the port that failed', () => {
    expect(unavailableServer(pgError('57P01', 'terminating connection due to administrator command'))).toEqual({
      name: 'Postgres',
    });
    expect(unavailableServer(new Error('x', { cause: new Error('Connection terminated unexpectedly') }))).toEqual({
      name: 'Postgres',
    });
    expect(unavailableServer(new openSearchErrors.ConnectionError('down'))).toEqual({ name: 'OpenSearch' });
    const socket = Object.assign(socketError('ECONNREFUSED'), { port: 9200 });
    expect(unavailableServer(new TypeError('fetch failed', { cause: socket }))).toEqual({ port: 9200 });
    expect(unavailableServer(new Error('no port'))).toBeNull();
  });

  it('carries the server in the failure, so the run can say what it waits for', () => {
    const failure = toApplicationFailure(pgError('08006', 'connection failure'));
    expect(failure.message).toBe('Postgres did not answer; the attempt is retried');
    expect(failure.details?.[0]).toEqual({ server: 'Postgres', port: null });
  });

  it("names a port from the worker's configuration, and leaves a port two servers share unnamed", () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://u@db.internal:6543/sluice',
      SLUICE_PROFILE: 'production',
      S3_BUCKET: 'b',
      S3_ENDPOINT: 'https://s3.internal',
      QDRANT_URL: 'http://qdrant:6333',
      OPENSEARCH_URL: 'https://search.internal',
      SLUICE_EMBEDDER: 'local',
    });
    const name = serverNamesByPort(config);
    expect(name(6543)).toBe('Postgres');
    expect(name(6333)).toBe('Qdrant');
    expect(name(443)).toBeNull();
    expect(name(1)).toBeNull();
  });
});
