import { setTimeout as sleep } from 'node:timers/promises';
import { Context } from '@temporalio/activity';
import type { SyncReport } from '../../contracts/sources';
import { findDocument } from '../../db/repositories/documents';
import { findPipeline } from '../../db/repositories/pipelines';
import { dropEntry, saveEntry, vanishedEntries } from '../../db/repositories/sourceEntries';
import { recordSync } from '../../db/repositories/sources';
import type { ActivityDeps } from '../deps';
import { mappingFailures } from '../toApplicationFailure';
import { diffSourcePage, type ListedEntry } from './diffSourcePage';
import { fetchSourceEntry } from './fetchSourceEntry';

// A sync's slot is held while its run is watched: a short poll keeps the slot from idling after the
// run settles; the run's liveness (a call to Temporal) is checked only every IS_OPEN_EVERY polls.
const POLL_MS = 200;
const IS_OPEN_EVERY = 10;

/** How a document's run for a synced file ended: its status, and its failure code when it failed. */
export interface SyncedRunOutcome {
  status: 'SUCCESS' | 'FAILED' | 'CLOSED';
  failureCode: string | null;
}

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
     * Drops a vanished path from the ledger; returns the document to delete: the path's, when no
     * other path holds it and the source registered it (an upload it merely matched stays).
     */
    dropSourceEntry: mappingFailures(async (input: { sourceId: string; path: string }): Promise<string | null> => {
      const documentId = await dropEntry(deps.db, input.sourceId, input.path);
      if (documentId === null) return null;
      const doc = await findDocument(deps.db, documentId);
      return doc?.source === input.sourceId && doc.lifecycle === 'ACTIVE' ? documentId : null;
    }),

    /**
     * Resolves once the task's run has ended its attempt: SUCCESS, FAILED with its code (its run then
     * waits for a retry), or CLOSED when the run closed without the task (its take-over was refused).
     * Polls Postgres, heartbeating.
     */
    awaitSyncedRun: mappingFailures(
      async (input: { documentId: string; taskId: string }): Promise<SyncedRunOutcome> => {
        for (let poll = 1; ; poll++) {
          const pipeline = await findPipeline(deps.db, input.taskId);
          const status = pipeline?.pipeline_status;
          if (status === 'SUCCESS' || status === 'FAILED')
            return { status, failureCode: pipeline?.failure_code ?? null };
          if (poll % IS_OPEN_EVERY === 0 && !(await deps.runs.isOpen(input.documentId))) {
            const last = await findPipeline(deps.db, input.taskId);
            const settled = last?.pipeline_status;
            return settled === 'SUCCESS' || settled === 'FAILED'
              ? { status: settled, failureCode: last?.failure_code ?? null }
              : { status: 'CLOSED', failureCode: null };
          }
          Context.current().heartbeat();
          await sleep(POLL_MS, undefined, { signal: Context.current().cancellationSignal }).catch(() => undefined);
          if (Context.current().cancellationSignal.aborted) return { status: 'CLOSED', failureCode: null };
        }
      },
    ),

    recordSyncReport: mappingFailures((input: { sourceId: string; report: SyncReport }) =>
      recordSync(deps.db, input.sourceId, input.report),
    ),
  };
}
