import type { Kysely } from 'kysely';
import type { SourceKind, SourceSettings, SyncReport } from '../../contracts/sources';
import type { Database } from '../database';

export type SourceRow = Awaited<ReturnType<typeof findSource>> & object;

export interface NewSource {
  id: string;
  userId: string;
  datasetId: string;
  kind: SourceKind;
  settings: SourceSettings;
  sealedSecret: string | null;
  everySeconds: number | null;
  cron: string | null;
}

export async function insertSource(db: Kysely<Database>, source: NewSource): Promise<void> {
  await db
    .insertInto('sources')
    .values({
      id: source.id,
      user_id: source.userId,
      dataset_id: source.datasetId,
      kind: source.kind,
      config: JSON.stringify(source.settings),
      sealed_secret: source.sealedSecret,
      every_seconds: source.everySeconds,
      cron: source.cron,
    })
    .execute();
}

export async function findSource(db: Kysely<Database>, id: string) {
  return db.selectFrom('sources').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The user's sources, of one dataset when it is named, oldest first. */
export async function listSources(db: Kysely<Database>, userId: string, datasetId?: string) {
  let query = db.selectFrom('sources').selectAll().where('user_id', '=', userId);
  if (datasetId !== undefined) query = query.where('dataset_id', '=', datasetId);
  return query.orderBy('created_at').orderBy('id').execute();
}

export async function setSourcePaused(db: Kysely<Database>, id: string, paused: boolean): Promise<void> {
  await db.updateTable('sources').set({ paused, updated_at: new Date() }).where('id', '=', id).execute();
}

/** A source's new settings, secret or schedule (the caller validated them). */
export async function updateSourceRow(
  db: Kysely<Database>,
  id: string,
  change: { settings?: SourceSettings; sealedSecret?: string | null; everySeconds: number | null; cron: string | null },
): Promise<void> {
  await db
    .updateTable('sources')
    .set({
      ...(change.settings !== undefined ? { config: JSON.stringify(change.settings) } : {}),
      ...(change.sealedSecret !== undefined ? { sealed_secret: change.sealedSecret } : {}),
      every_seconds: change.everySeconds,
      cron: change.cron,
      updated_at: new Date(),
    })
    .where('id', '=', id)
    .execute();
}

export async function recordSync(db: Kysely<Database>, id: string, report: SyncReport): Promise<void> {
  await db
    .updateTable('sources')
    .set({ last_sync: JSON.stringify(report), updated_at: new Date() })
    .where('id', '=', id)
    .execute();
}

/** The source row and its ledger (cascade). Its documents are the caller's to keep or delete first. */
export async function deleteSource(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('sources').where('id', '=', id).execute();
}

/** Every source's sealed secret, for `sluice secrets rotate`. */
export async function listSealedSourceSecrets(db: Kysely<Database>): Promise<{ id: string; sealed: string }[]> {
  const rows = await db
    .selectFrom('sources')
    .select(['id', 'sealed_secret'])
    .where('sealed_secret', 'is not', null)
    .execute();
  return rows.map((r) => ({ id: r.id, sealed: r.sealed_secret as string }));
}

/** The secret re-sealed, only while it is still the value that was read (compare-and-set). */
export async function resealSourceSecret(
  db: Kysely<Database>,
  id: string,
  expected: string,
  resealed: string,
): Promise<boolean> {
  const result = await db
    .updateTable('sources')
    .set({ sealed_secret: resealed })
    .where('id', '=', id)
    .where('sealed_secret', '=', expected)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
