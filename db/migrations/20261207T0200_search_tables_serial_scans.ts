import { sql, type Kysely } from 'kysely';

/**
 * A search runs its lists at once, one query each (search/hybridSearch.ts), and a worker runs many
 * activities at once: a parallel plan's workers only take cores from those other queries, and start
 * up for each. Measured in bench:search on 2 cores, hybrid search on 100,000 chunks was slower with
 * the dense pass planned as a parallel index scan (docs/search.md), so the tables a search reads
 * are scanned by one process.
 */
const SEARCH_TABLES = ['dense_vectors', 'language_dense_vectors', 'sparse_vectors', 'keyword_entries'];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of SEARCH_TABLES) await sql`ALTER TABLE ${sql.table(table)} SET (parallel_workers = 0)`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of SEARCH_TABLES) await sql`ALTER TABLE ${sql.table(table)} RESET (parallel_workers)`.execute(db);
}
