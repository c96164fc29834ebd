import type { SyncReport } from '../../contracts/sources';
import { findDocument } from '../../db/repositories/documents';
import { dropEntry, orphanedByPath, saveEntry, vanishedEntries } from '../../db/repositories/sourceEntries';
import { recordSync } from '../../db/repositories/sources';
import type { ActivityDeps } from '../deps';
import { awaitTaskSettled } from '../awaitTaskSettled';
import { mappingFailures } from '../toApplicationFailure';
import { diffSourcePage, type ListedEntry } from './diffSourcePage';
import { fetchSourceEntry } from './fetchSourceEntry';

/** The activities of a source's sync (workflows/syncSource.ts, docs/sources.md). */
export function createSourceSyncActivities(deps: ActivityDeps) {
  return {
    diffSourcePage: mappingFailures(
      (input: { sourceId: string; syncId: string; cursor: string | null; limit: number }) =>
        diffSourcePage(deps, input),
    ),

    fetchSourceEntry: mappingFailures((input: { sourceId: string; syncId: string; entry: ListedEntry }) =>
      fetchSourceEntry(deps, input),
    ),

    /** The ledger of a file whose run has started: its document and content, seen by this sync. */
    commitSourceEntry: mappingFailures(
      async (input: {
        sourceId: string;
        syncId: string;
        entry: ListedEntry;
        documentId: string;
        sha256: string | null;
      }) => {
        const doc = input.sha256 === null ? await findDocument(deps.db, input.documentId) : undefined;
        await saveEntry(deps.db, {
          sourceId: input.sourceId,
          path: input.entry.path,
          documentId: input.documentId,
          etag: input.entry.etag,
          mtime: input.entry.mtime === null ? null : new Date(input.entry.mtime),
          sizeBytes: input.entry.sizeBytes,
          contentSha256: input.sha256 ?? doc?.content_sha256 ?? null,
          failureCode: null,
          syncId: input.syncId,
        });
      },
    ),

    /** Paths of the source this sync did not list: gone at the source. */
    listVanishedEntries: mappingFailures(async (input: { sourceId: string; syncId: string; limit: number }) =>
      (await vanishedEntries(deps.db, input.sourceId, input.syncId, input.limit)).map((e) => e.path),
    ),

    /**
     * The document to delete for a vanished path: the path's, when no other path holds it and the
     * source registered it (an upload it merely matched stays). Reads only, so a retry answers the same.
     */
    vanishedDocument: mappingFailures(async (input: { sourceId: string; path: string }): Promise<string | null> => {
      const documentId = await orphanedByPath(deps.db, input.sourceId, input.path);
      if (documentId === null) return null;
      const doc = await findDocument(deps.db, documentId);
      return doc?.source === input.sourceId && doc.lifecycle === 'ACTIVE' ? documentId : null;
    }),

    /** Drops a vanished path from the ledger, once its document's deletion has started. */
    dropSourceEntry: mappingFailures((input: { sourceId: string; path: string }) =>
      dropEntry(deps.db, input.sourceId, input.path),
    ),

    /** Resolves once a document run the sync started has settled: its status and failure code. */
    awaitSyncedRun: mappingFailures((input: { documentId: string; taskId: string }) => awaitTaskSettled(deps, input)),

    recordSyncReport: mappingFailures((input: { sourceId: string; report: SyncReport }) =>
      recordSync(deps.db, input.sourceId, input.report),
    ),
  };
}
