import { sql } from 'kysely';
import { createDb } from '../db/connection';
import { migrateToLatest } from '../db/migrate';

/**
 * The bench writes into a database of its own, created when missing and emptied at the start of
 * every run, so its row counts and table sizes are its own. The name must say "bench": this
 * drops every table in it.
 */
export async function resetBenchDatabase(url: string): Promise<void> {
  const parsed = new URL(url);
  const name = parsed.pathname.replace(/^\//, '');
  if (!/bench/.test(name))
    throw new Error(`refusing to reset database "${name}": the bench database's name must contain "bench"`);
  const admin = createDb(Object.assign(new URL(url), { pathname: '/postgres' }).toString(), 1);
  try {
    const { rows } = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM pg_database WHERE datname = ${name}`.execute(admin);
    if (rows[0]?.n === 0) await sql`CREATE DATABASE ${sql.id(name)}`.execute(admin);
  } finally {
    await admin.destroy();
  }
  const db = createDb(url, 1);
  try {
    await sql`DROP SCHEMA IF EXISTS public CASCADE`.execute(db);
    await sql`CREATE SCHEMA public`.execute(db);
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
}
