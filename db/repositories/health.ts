import { sql, type Kysely } from 'kysely';
import type { Database } from '../database';

/** The cheapest statement that proves the database answers (the API's health check). */
export async function pingDatabase(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}
