import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database';

export type TableWrites = Record<string, number>;

/** Rows written per table, plus the database's committed transactions under the key `(commits)`. */
export const COMMITS = '(commits)';

/**
 * Rows inserted + updated + deleted per table of this database, from pg_stat_user_tables. A
 * backend reports its counts when it goes idle or exits, so take the "after" snapshot once the
 * measured processes have exited.
 */
export async function tableWrites(db: Kysely<Database>): Promise<TableWrites> {
  const { rows } = await sql<{ relname: string; n: number }>`
    SELECT relname, (n_tup_ins + n_tup_upd + n_tup_del)::int8 AS n FROM pg_stat_user_tables
    UNION ALL
    SELECT ${COMMITS}, xact_commit FROM pg_stat_database WHERE datname = current_database()`.execute(db);
  return Object.fromEntries(rows.map((r) => [r.relname, Number(r.n)]));
}

/** Per-table difference, leaving out tables nothing wrote to. */
export function writesBetween(before: TableWrites, after: TableWrites): TableWrites {
  const delta: TableWrites = {};
  for (const [table, n] of Object.entries(after)) {
    const d = n - (before[table] ?? 0);
    if (d > 0) delta[table] = d;
  }
  return delta;
}

export function totalWrites(writes: TableWrites): number {
  return Object.entries(writes).reduce((sum, [table, n]) => (table === COMMITS ? sum : sum + n), 0);
}
