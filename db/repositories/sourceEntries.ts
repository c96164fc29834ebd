import { sql, type Kysely } from 'kysely';
import type { Database } from '../database';

export type LedgerEntry = Awaited<ReturnType<typeof ledgerEntries>>[number];

/** The ledger rows of these paths of the source. */
export async function ledgerEntries(db: Kysely<Database>, sourceId: string, paths: readonly string[]) {
  if (paths.length === 0) return [];
  return db
    .selectFrom('source_entries')
    .selectAll()
    .where('source_id', '=', sourceId)
    .where('path', '=', sql<string>`ANY(${paths}::text[])`)
    .execute();
}

/** Marks the paths seen by this sync (they are unchanged, or their work is done). */
export async function markSeen(db: Kysely<Database>, sourceId: string, paths: readonly string[], syncId: string) {
  if (paths.length === 0) return;
  await db
    .updateTable('source_entries')
    .set({ seen_sync_id: syncId })
    .where('source_id', '=', sourceId)
    .where('path', '=', sql<string>`ANY(${paths}::text[])`)
    .execute();
}

export interface EntryState {
  sourceId: string;
  path: string;
  documentId: string | null;
  etag: string | null;
  mtime: Date | null;
  sizeBytes: number;
  contentSha256: string | null;
  failureCode: string | null;
  syncId: string;
}

/** What the sync now knows of a path: inserted or replaced. */
export async function saveEntry(db: Kysely<Database>, e: EntryState): Promise<void> {
  const row = {
    source_id: e.sourceId,
    path: e.path,
    document_id: e.documentId,
    etag: e.etag,
    mtime: e.mtime,
    size_bytes: e.sizeBytes,
    content_sha256: e.contentSha256,
    failure_code: e.failureCode,
    seen_sync_id: e.syncId,
    updated_at: new Date(),
  };
  await db
    .insertInto('source_entries')
    .values(row)
    .onConflict((oc) => oc.columns(['source_id', 'path']).doUpdateSet(row))
    .execute();
}

/** Paths this sync did not see: gone from the source. A page at a time, in path order. */
export async function vanishedEntries(db: Kysely<Database>, sourceId: string, syncId: string, limit: number) {
  return db
    .selectFrom('source_entries')
    .select(['path', 'document_id'])
    .where('source_id', '=', sourceId)
    .where('seen_sync_id', '<>', syncId)
    .orderBy('path')
    .limit(limit)
    .execute();
}

/**
 * The document of a vanished path, when no other path of any source still holds it (a renamed
 * file's content stays with the path it moved to). Reads only: the path leaves the ledger after
 * its document's deletion has started (dropEntry), so a retried step finds the path again.
 */
export async function orphanedByPath(db: Kysely<Database>, sourceId: string, path: string): Promise<string | null> {
  const entry = await db
    .selectFrom('source_entries')
    .select('document_id')
    .where('source_id', '=', sourceId)
    .where('path', '=', path)
    .executeTakeFirst();
  const documentId = entry?.document_id ?? null;
  if (documentId === null) return null;
  const other = await db
    .selectFrom('source_entries')
    .select('path')
    .where('document_id', '=', documentId)
    .where((eb) => eb.or([eb('source_id', '<>', sourceId), eb('path', '<>', path)]))
    .limit(1)
    .executeTakeFirst();
  return other ? null : documentId;
}

/** Drops the path from the ledger; dropping it twice is the same as once. */
export async function dropEntry(db: Kysely<Database>, sourceId: string, path: string): Promise<void> {
  await db.deleteFrom('source_entries').where('source_id', '=', sourceId).where('path', '=', path).execute();
}

/** The documents the source's ledger holds (for removing a source with its documents). */
export async function sourceDocumentIds(db: Kysely<Database>, sourceId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('source_entries')
    .select('document_id')
    .distinct()
    .where('source_id', '=', sourceId)
    .where('document_id', 'is not', null)
    .execute();
  return rows.flatMap((r) => (r.document_id ? [r.document_id] : []));
}
