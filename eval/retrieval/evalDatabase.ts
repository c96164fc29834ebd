import { sql, type Kysely } from 'kysely';
import { createDb } from '../../db/connection';
import type { Database } from '../../db/database';
import { migrateToLatest } from '../../db/migrate';

/** Its own database beside the stack's, so neither the tests' nor the app's data is touched. */
const EVAL_DATABASE = 'sluice_eval_retrieval';

/**
 * Creates the evaluation's database on the configured server when missing, empties it (the name
 * is fixed, so this never drops anyone else's tables) and brings it to the latest schema.
 */
export async function openEvalDatabase(serverUrl: string): Promise<Kysely<Database>> {
  const url = Object.assign(new URL(serverUrl), { pathname: `/${EVAL_DATABASE}` }).toString();
  const admin = createDb(Object.assign(new URL(serverUrl), { pathname: '/postgres' }).toString(), 1);
  try {
    const { rows } = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM pg_database WHERE datname = ${EVAL_DATABASE}`.execute(admin);
    if (rows[0]?.n === 0) await sql`CREATE DATABASE ${sql.id(EVAL_DATABASE)}`.execute(admin);
  } finally {
    await admin.destroy();
  }
  const db = createDb(url, 4);
  await sql`DROP SCHEMA IF EXISTS public CASCADE`.execute(db);
  await sql`CREATE SCHEMA public`.execute(db);
  await migrateToLatest(db);
  return db;
}
