import { sql, type Kysely } from 'kysely';
import { datasetSettingsSchema, type ChunkingSettings, type DatasetSettings } from '../../contracts/datasetSettings';
import type { Database } from '../database';

export interface DatasetRef {
  userId: string;
  datasetId: string;
}

/** The dataset's stored settings, `{}` (every default) when none were set. */
export async function findDatasetSettings(db: Kysely<Database>, ref: DatasetRef): Promise<DatasetSettings> {
  const row = await db
    .selectFrom('dataset_settings')
    .select('settings')
    .where('user_id', '=', ref.userId)
    .where('dataset_id', '=', ref.datasetId)
    .executeTakeFirst();
  return row ? datasetSettingsSchema.parse(row.settings) : {};
}

/** The dataset's chunking section; null when it has none (every default). */
export async function datasetChunkingOf(db: Kysely<Database>, ref: DatasetRef): Promise<ChunkingSettings | null> {
  return (await findDatasetSettings(db, ref)).chunking ?? null;
}

/** Replaces the whole settings document; the caller has validated it. */
export async function saveDatasetSettings(
  db: Kysely<Database>,
  ref: DatasetRef,
  settings: DatasetSettings,
): Promise<void> {
  const json = JSON.stringify(settings);
  await db
    .insertInto('dataset_settings')
    .values({ user_id: ref.userId, dataset_id: ref.datasetId, settings: json })
    .onConflict((oc) => oc.columns(['user_id', 'dataset_id']).doUpdateSet({ settings: json, updated_at: sql`now()` }))
    .execute();
}

/**
 * Reads and rewrites under a row lock, so two concurrent changes to different sections both
 * survive. `change` gets the stored settings and returns the new ones.
 */
export async function updateDatasetSettings(
  db: Kysely<Database>,
  ref: DatasetRef,
  change: (current: DatasetSettings) => DatasetSettings,
): Promise<DatasetSettings> {
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto('dataset_settings')
      .values({ user_id: ref.userId, dataset_id: ref.datasetId, settings: '{}' })
      .onConflict((oc) => oc.columns(['user_id', 'dataset_id']).doNothing())
      .execute();
    const row = await trx
      .selectFrom('dataset_settings')
      .select('settings')
      .where('user_id', '=', ref.userId)
      .where('dataset_id', '=', ref.datasetId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const next = change(datasetSettingsSchema.parse(row.settings));
    await saveDatasetSettings(trx, ref, next);
    return next;
  });
}
