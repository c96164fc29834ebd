import { Migrator, type Kysely } from 'kysely';
import { loadConfig } from '../config/config';
import { createDb } from './connection';
import type { Database } from './database';
import { migrationProvider } from './migrations';

/** Brings the schema to the latest migration; throws with the failing migration's name. */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    throw new Error(`migration ${failed?.migrationName ?? '(unknown)'} failed: ${String(error)}`, { cause: error });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

async function main(): Promise<void> {
  const config = loadConfig();
  const db = createDb(config.database.url, 1);
  try {
    const applied = await migrateToLatest(db);
    console.log(applied.length ? `migrated: ${applied.join(', ')}` : 'schema is up to date');
  } finally {
    await db.destroy();
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
