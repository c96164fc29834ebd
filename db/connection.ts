import { Kysely, PostgresDialect } from 'kysely';
import { Pool, types } from 'pg';
import type { Database } from './database';
import { libpqCompatibleUrl } from './postgresTls';

// int8 counts from COUNT(*) arrive as strings by default; all of ours fit in a JS number.
types.setTypeParser(types.builtins.INT8, (value) => Number(value));

/** Told of a connection that broke outside any query (a Postgres restart or failover). */
export type PoolErrorListener = (error: Error) => void;

/**
 * What is logged of a broken connection: the driver's SQLSTATE and message ("terminating
 * connection due to administrator command", "Connection terminated unexpectedly"). Never the
 * connection string, which may carry a password.
 */
export function describePoolError(error: Error): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? `${code}: ${error.message}` : error.message;
}

const warnOnConsole: PoolErrorListener = (error) =>
  console.warn(`postgres: a pooled connection failed (${describePoolError(error)}); it is dropped and replaced`);

/**
 * `url` may carry libpq's TLS parameters (sslmode, sslrootcert, sslcert, sslkey): see postgresTls.ts.
 * A pg pool whose connections may break at any time without ending the process: pg emits
 * 'error' on an idle client (and so on the pool) or on a checked-out client between queries when
 * the server goes away, and an unhandled 'error' event kills Node. The broken client is dropped
 * by the pool (pg-pool removes clients that errored); the next query opens a new connection, and
 * a query that runs while the server is down fails and is retried by its caller.
 */
export function createDb(url: string, poolSize = 10, onError: PoolErrorListener = warnOnConsole): Kysely<Database> {
  const pool = new Pool({ connectionString: libpqCompatibleUrl(url), max: poolSize });
  pool.on('error', onError);
  // The pool's own listener covers a client only while it is idle; this one covers it while a
  // caller holds it (a transaction waiting on other work). The query in flight, if any, gets the
  // error as its rejection, so it is not reported twice.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}
