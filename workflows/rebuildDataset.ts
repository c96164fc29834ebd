import {
  ChildWorkflowCancellationType,
  continueAsNew,
  ParentClosePolicy,
  proxyActivities,
  startChild,
  uuid4,
} from '@temporalio/workflow';
import type { IngestActivities } from '../activities';
import { ingestWorkflowId, INGEST_WORKFLOW_TYPE, type IngestInput } from '../contracts/ingest';
import { markdownLiteral } from '../contracts/markdownText';
import type { RebuildCandidate, RebuildCounts, RebuildDatasetInput } from '../contracts/rebuild';
import { DatasetIdKey, DocumentIdKey, PipelineStatusKey } from '../contracts/searchAttributes';
import type { ingestDocument } from './ingestDocument';
import { bookkeeping } from './activityOptions';
import { inSlots } from './inSlots';
import { declareVersioningBehavior } from './versioningBehavior';

// Listing a page is one query: retried through a database outage for the outage budget.
const listing = bookkeeping('list the rebuild page');

// Waiting for a document's run lasts as long as its stages (hours for a large document): it
// heartbeats every second, so a dead worker is noticed in 30 s; retried without an attempt limit,
// like deletion, because giving up would leave the slot's document unaccounted for.
const waiting = proxyActivities<IngestActivities>({
  startToCloseTimeout: '24 hours',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/** Documents per page; the workflow continues-as-new after each, so its history stays bounded. */
const PAGE = 100;

/**
 * Rebuilds every document of a dataset under a plan, one `ingest:<documentId>` run per document
 * (a rebuild take-over of its latest succeeded task), with at most `maxOpen` of them between
 * start and settlement at once: the rest start as slots free up (docs/rebuild.md). A run is
 * started as an abandoned child, so it outlives this workflow like any other ingestion run; its
 * slot frees when its attempt settles (SUCCESS, or FAILED and waiting for a retry).
 */
export async function rebuildDataset(input: RebuildDatasetInput): Promise<RebuildCounts> {
  const counts: RebuildCounts = { ...{ started: 0, succeeded: 0, failed: 0, skipped: 0 }, ...input.counts };
  const page = await listing.listRebuildPage({
    userId: input.userId,
    datasetId: input.datasetId,
    ...(input.afterDocumentId !== undefined ? { afterDocumentId: input.afterDocumentId } : {}),
    limit: PAGE,
  });
  counts.skipped += page.skipped;
  await inSlots(input.maxOpen, page.candidates, (candidate) => rebuildOne(input, candidate, counts));
  if (page.lastDocumentId === null || page.candidates.length + page.skipped < PAGE) return counts;
  return continueAsNew<typeof rebuildDataset>({ ...input, afterDocumentId: page.lastDocumentId, counts });
}

/** Starts one document's rebuild run and waits until its attempt settles. */
async function rebuildOne(input: RebuildDatasetInput, candidate: RebuildCandidate, counts: RebuildCounts) {
  const taskId = uuid4();
  const args: IngestInput = {
    documentId: candidate.documentId,
    userId: input.userId,
    datasetId: input.datasetId,
    taskId,
    rebuildOfTaskId: candidate.lastTaskId,
    ...(input.chunkingPlan ? { chunkingPlan: input.chunkingPlan } : {}),
    ...(input.callerClaim !== undefined ? { callerClaim: input.callerClaim } : {}),
    retryWait: input.retryWait,
  };
  try {
    await startChild<typeof ingestDocument>(INGEST_WORKFLOW_TYPE, {
      workflowId: ingestWorkflowId(candidate.documentId),
      args: [args],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      cancellationType: ChildWorkflowCancellationType.ABANDON,
      typedSearchAttributes: [
        { key: DocumentIdKey, value: candidate.documentId },
        { key: DatasetIdKey, value: input.datasetId },
        { key: PipelineStatusKey, value: 'PENDING' },
      ],
      staticSummary: `rebuild document ${candidate.documentId} in ${markdownLiteral(input.datasetId, 120)}`,
    });
  } catch (error) {
    // A run for the document is open (an ingestion, a retry wait): it is not rebuilt now.
    // (The error class lives in @temporalio/common, which workflow code does not import: its name.)
    if (!(error instanceof Error && error.name === 'WorkflowExecutionAlreadyStartedError')) throw error;
    counts.skipped += 1;
    return;
  }
  counts.started += 1;
  const settled = await waiting.awaitRebuildSettled({ documentId: candidate.documentId, taskId });
  if (settled === 'SUCCESS') counts.succeeded += 1;
  else if (settled === 'FAILED') counts.failed += 1;
  // Closed without a task: prepareTask refused the take-over (the document changed meanwhile).
  else counts.skipped += 1;
}

// PINNED: one page of rebuilds holds its version only while that page's document runs settle (each
// of those is an ingestDocument run with its own behaviour), and every page continues-as-new, so a
// long dataset rebuild still reaches the current version page by page without any patch here.
declareVersioningBehavior('PINNED', rebuildDataset);
