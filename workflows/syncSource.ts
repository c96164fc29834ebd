import {
  ChildWorkflowCancellationType,
  continueAsNew,
  ParentClosePolicy,
  proxyActivities,
  startChild,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import type { IngestActivities } from '../activities';
import type { ListedEntry } from '../activities/sources/diffSourcePage';
import { deleteWorkflowId, DELETE_WORKFLOW_TYPE, type DeleteInput } from '../contracts/deletion';
import { ingestWorkflowId, INGEST_WORKFLOW_TYPE, type IngestInput } from '../contracts/ingest';
import { markdownLiteral } from '../contracts/markdownText';
import { DatasetIdKey, DocumentIdKey, PipelineStatusKey, SourceIdKey } from '../contracts/searchAttributes';
import { emptyCounts, type FetchedEntry, type SyncCounts, type SyncSourceInput } from '../contracts/sources';
import type { deleteDocument } from './deleteDocument';
import type { ingestDocument } from './ingestDocument';
import { bookkeeping } from './activityOptions';
import { inSlots } from './inSlots';
import { declareVersioningBehavior } from './versioningBehavior';

// Listing a page and reading a file talk to the source: a source that is down is waited for
// (transient SOURCE_UNAVAILABLE backs off to a minute, for up to an hour of attempts), one that
// refuses (a missing bucket, a folder outside the allowed roots) fails at once.
const reading = proxyActivities<IngestActivities>({
  startToCloseTimeout: '10 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 70 },
});

// Ledger bookkeeping is a statement or two: retried through a database outage for the outage budget.
const ledger = (sourceId: string) => bookkeeping(`ledger of source ${sourceId}`);

// Waiting for a document's run lasts as long as its stages; it heartbeats every second.
const waiting = proxyActivities<IngestActivities>({
  startToCloseTimeout: '24 hours',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/** Entries per listing page, and pages per run before continue-as-new keeps the history bounded. */
const PAGE = 100;
const PAGES_PER_RUN = 10;

/**
 * One sync of a source (docs/sources.md), started by its Schedule (overlap: skip) or a trigger:
 * the listing is diffed against the ledger a page at a time; new files are registered and
 * ingested, changed ones replaced in place (same document id, only changed chunks embedded), each
 * as an abandoned `ingest:<documentId>` child with at most `maxOpen` unsettled at once; then every
 * path the listing no longer had is deleted from every store. Continues as new every
 * PAGES_PER_RUN pages, carrying its counts; the last run records the report on the source.
 */
export async function syncSource(input: SyncSourceInput): Promise<SyncCounts> {
  const syncId = input.syncId ?? uuid4();
  const startedAt = input.startedAt ?? new Date().toISOString();
  const counts = input.counts ?? emptyCounts();
  const carry = { ...input, syncId, startedAt, counts };
  if (input.phase !== 'vanished') {
    let cursor = input.cursor ?? null;
    for (let pages = 0; pages < PAGES_PER_RUN; pages++) {
      const page = await reading.diffSourcePage({ sourceId: input.sourceId, syncId, cursor, limit: PAGE });
      counts.listed += page.listed;
      counts.unchanged += page.unchanged;
      await inSlots(input.maxOpen ?? 4, page.fetch, (entry) => syncEntry(carry, entry));
      cursor = page.next;
      if (cursor === null) break;
    }
    if (cursor !== null) return continueAsNew<typeof syncSource>({ ...carry, cursor });
  }
  for (;;) {
    const gone = await ledger(input.sourceId).listVanishedEntries({ sourceId: input.sourceId, syncId, limit: PAGE });
    for (const path of gone) await removeEntry(carry, path);
    if (gone.length < PAGE) break;
    if (workflowInfo().continueAsNewSuggested)
      return continueAsNew<typeof syncSource>({ ...carry, phase: 'vanished', cursor: null });
  }
  const finishedAt = new Date().toISOString();
  await ledger(input.sourceId).recordSyncReport({
    sourceId: input.sourceId,
    report: { ...counts, syncId, startedAt, finishedAt, durationMs: Date.parse(finishedAt) - Date.parse(startedAt) },
  });
  return counts;
}

function countFailure(counts: SyncCounts, code: string): void {
  counts.failed += 1;
  counts.failures[code] = (counts.failures[code] ?? 0) + 1;
}

type Carry = SyncSourceInput & { syncId: string; counts: SyncCounts };

async function syncEntry(input: Carry, entry: ListedEntry): Promise<void> {
  const fetched = await reading.fetchSourceEntry({ sourceId: input.sourceId, syncId: input.syncId, entry });
  if (fetched.kind === 'unchanged') input.counts.unchanged += 1;
  if (fetched.kind === 'failed') countFailure(input.counts, fetched.code);
  if (fetched.kind !== 'ingest' && fetched.kind !== 'replace') return;
  if (!(await startDocumentRun(input, entry, fetched))) {
    countFailure(input.counts, 'DOCUMENT_BUSY');
    return;
  }
  await ledger(input.sourceId).commitSourceEntry({
    sourceId: input.sourceId,
    syncId: input.syncId,
    entry,
    documentId: fetched.documentId,
    sha256: fetched.kind === 'replace' ? fetched.replacement.sha256 : null,
  });
  const outcome = await waiting.awaitSyncedRun({ documentId: fetched.documentId, taskId: fetched.taskId });
  if (outcome.status === 'SUCCESS') {
    if (fetched.kind === 'ingest') input.counts.added += 1;
    else input.counts.updated += 1;
  } else countFailure(input.counts, outcome.failureCode ?? 'INTERRUPTED_TASK');
}

/** Starts the document's run as an abandoned child; false when a run for it is already open. */
async function startDocumentRun(
  input: Carry,
  entry: ListedEntry,
  fetched: Extract<FetchedEntry, { kind: 'ingest' | 'replace' }>,
): Promise<boolean> {
  const args: IngestInput = {
    documentId: fetched.documentId,
    userId: input.userId,
    datasetId: input.datasetId,
    taskId: fetched.taskId,
    retryWait: input.retryWait,
    ...(input.callerClaim !== undefined ? { callerClaim: input.callerClaim } : {}),
    ...(fetched.kind === 'replace'
      ? { replaceOfTaskId: fetched.replaceOfTaskId, replacement: fetched.replacement }
      : {}),
  };
  try {
    await startChild<typeof ingestDocument>(INGEST_WORKFLOW_TYPE, {
      workflowId: ingestWorkflowId(fetched.documentId),
      args: [args],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      cancellationType: ChildWorkflowCancellationType.ABANDON,
      typedSearchAttributes: [
        { key: DocumentIdKey, value: fetched.documentId },
        { key: DatasetIdKey, value: input.datasetId },
        { key: PipelineStatusKey, value: 'PENDING' },
        { key: SourceIdKey, value: input.sourceId },
      ],
      staticSummary: `${fetched.kind === 'ingest' ? 'ingest' : 'replace'} ${markdownLiteral(entry.path, 120)} from source ${input.sourceId}`,
    });
    return true;
  } catch (error) {
    // (The error class lives in @temporalio/common, which workflow code does not import: its name.)
    if (error instanceof Error && error.name === 'WorkflowExecutionAlreadyStartedError') return false;
    throw error;
  }
}

/**
 * A path gone from the source: its document's deletion started, then the path out of the ledger.
 * In that order, so a worker lost in between leaves the path to be found again, never a document
 * no ledger row leads to.
 */
async function removeEntry(input: Carry, path: string): Promise<void> {
  const documentId = await ledger(input.sourceId).vanishedDocument({ sourceId: input.sourceId, path });
  if (documentId !== null) await startDeletion(input, path, documentId);
  await ledger(input.sourceId).dropSourceEntry({ sourceId: input.sourceId, path });
}

async function startDeletion(input: Carry, path: string, documentId: string): Promise<void> {
  const args: DeleteInput = {
    documentId,
    userId: input.userId,
    datasetId: input.datasetId,
    ...(input.callerClaim !== undefined ? { callerClaim: input.callerClaim } : {}),
  };
  try {
    await startChild<typeof deleteDocument>(DELETE_WORKFLOW_TYPE, {
      workflowId: deleteWorkflowId(documentId),
      args: [args],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      cancellationType: ChildWorkflowCancellationType.ABANDON,
      typedSearchAttributes: [
        { key: DocumentIdKey, value: documentId },
        { key: SourceIdKey, value: input.sourceId },
      ],
      staticSummary: `delete ${markdownLiteral(path, 120)}: gone from source ${input.sourceId}`,
    });
  } catch (error) {
    if (!(error instanceof Error && error.name === 'WorkflowExecutionAlreadyStartedError')) throw error;
  }
  input.counts.deleted += 1;
}

// PINNED: a sync is a page of work at a time, each page a continue-as-new, so a long sync reaches a
// new release page by page; its document runs and deletions have their own behaviour.
declareVersioningBehavior('PINNED', syncSource);
