import { Kysely, PostgresDialect } from 'kysely';
import { Pool, types } from 'pg';
import type { Database } from './database';
import { libpqCompatibleUrl } from './postgresTls';

// int8 counts from COUNT(*) arrive as strings by default; all of ours fit in a JS number.
types.setTypeParser(types.builtins.INT8, (value) => Number(value));

/** `url` may carry libpq's TLS parameters (sslmode, sslrootcert, sslcert, sslkey): see postgresTls.ts. */
export function createDb(url: string, poolSize = 10): Kysely<Database> {
  return new Kysely<Database>({
    dialect: new PostgresDialect({ pool: new Pool({ connectionString: libpqCompatibleUrl(url), max: poolSize }) }),
  });
}
