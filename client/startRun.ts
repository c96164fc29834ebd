import { createHash, createHmac } from 'node:crypto';
import { tenantPriority } from '../contracts/fairness';
import { signCallerClaim } from '../crypto/callerClaim';
import { WorkflowExecutionAlreadyStartedError, type Client, type WorkflowHandle } from '@temporalio/client';
import { TypedSearchAttributes } from '@temporalio/common';
import type { SluiceConfig } from '../config/config';
import { ingestWorkflowId, INGEST_WORKFLOW_TYPE, type IngestInput } from '../contracts/ingest';
import { DatasetIdKey, DocumentIdKey, PipelineStatusKey } from '../contracts/searchAttributes';
import { planLine, type ChunkingPlan } from '../contracts/chunkingPlan';
import { markdownLiteral } from '../contracts/markdownText';
import type { DocumentRow } from '../db/database';
import type { ingestDocument } from '../workflows/ingestDocument';

export interface IngestRun {
  documentId: string;
  userId: string;
  datasetId: string;
  taskId: string;
  /** A take-over of this failed task (a retry). */
  retryOfTaskId?: string;
  /** A take-over of this succeeded task that redoes the vectors (a re-embed). */
  reembedOfTaskId?: string;
  /** A take-over of this succeeded task that re-chunks its stored markdown (a rebuild). */
  rebuildOfTaskId?: string;
  /** A take-over of this finished task that ingests new content for the document (a replace). */
  replaceOfTaskId?: string;
  /** The replace's new content, stored under the run's task id (objectKeys.version). */
  replacement?: { sha256: string; sizeBytes: number; fileName: string };
  /** The rebuild's plan; absent → the deployment's chunker settings. */
  chunkingPlan?: ChunkingPlan;
  /** Shown in the Web UI; absent when the caller has only the ids. */
  file?: { name: string; sizeBytes: number };
}

/** The run's ids and file of a registered document (the task ids are the caller's). */
export function runOf(
  doc: Pick<DocumentRow, 'id' | 'user_id' | 'dataset_id' | 'file_name' | 'size_bytes'>,
): Omit<IngestRun, 'taskId'> {
  return {
    documentId: doc.id,
    userId: doc.user_id,
    datasetId: doc.dataset_id,
    file: { name: doc.file_name, sizeBytes: Number(doc.size_bytes) },
  };
}

/** A summary is one line, shown literally: the Web UI renders it as markdown (contracts/markdownText.ts). */
function oneLine(text: string, max = 120): string {
  return markdownLiteral(text, max);
}

function whatOf(run: IngestRun): string {
  if (run.reembedOfTaskId) return 're-embed';
  if (run.rebuildOfTaskId) return 'rebuild';
  if (run.replaceOfTaskId) return 'replace';
  return run.retryOfTaskId ? 'retry' : 'ingest';
}

/** The Web UI's title and details of the run: what it works on, for whom, and what it takes over. */
export function runDescription(run: IngestRun): { staticSummary: string; staticDetails: string } {
  const subject = run.file ? `${oneLine(run.file.name)} (${run.file.sizeBytes} bytes)` : `document ${run.documentId}`;
  const details = [
    ...(run.file ? [`**File:** ${oneLine(run.file.name, 500)}`, `**Size:** ${run.file.sizeBytes} bytes`] : []),
    `**Dataset:** ${oneLine(run.datasetId, 200)}`,
    `**User:** ${oneLine(run.userId, 200)}`,
    `**Document:** ${run.documentId}`,
    `**Task:** ${run.taskId}`,
    ...(run.retryOfTaskId ? [`**Retry of task:** ${run.retryOfTaskId}`] : []),
    ...(run.reembedOfTaskId ? [`**Re-embed of task:** ${run.reembedOfTaskId}`] : []),
    ...(run.rebuildOfTaskId ? [`**Rebuild of task:** ${run.rebuildOfTaskId}`] : []),
    ...(run.replaceOfTaskId ? [`**Replaces the content of task:** ${run.replaceOfTaskId}`] : []),
    ...(run.chunkingPlan ? [`**Plan:** ${oneLine(planLine(run.chunkingPlan), 300)}`] : []),
  ];
  return { staticSummary: `${whatOf(run)} ${subject} in ${oneLine(run.datasetId)}`, staticDetails: details.join('\n') };
}

/**
 * The one way an ingestion run starts (first run, retry take-over, re-embed): the same workflow
 * id, task queue, search attributes and Web UI description everywhere. Throws
 * WorkflowExecutionAlreadyStartedError while a run for the document is open; each caller decides
 * what that means for it.
 */
export async function startIngestRun(
  client: Client,
  config: Readonly<SluiceConfig>,
  run: IngestRun,
): Promise<WorkflowHandle<typeof ingestDocument>> {
  const args: IngestInput = {
    documentId: run.documentId,
    userId: run.userId,
    datasetId: run.datasetId,
    taskId: run.taskId,
    ...(run.retryOfTaskId ? { retryOfTaskId: run.retryOfTaskId } : {}),
    ...(run.reembedOfTaskId ? { reembedOfTaskId: run.reembedOfTaskId } : {}),
    ...(run.rebuildOfTaskId ? { rebuildOfTaskId: run.rebuildOfTaskId } : {}),
    ...(run.replaceOfTaskId ? { replaceOfTaskId: run.replaceOfTaskId } : {}),
    ...(run.replacement ? { replacement: run.replacement } : {}),
    ...(run.chunkingPlan ? { chunkingPlan: run.chunkingPlan } : {}),
    ...callerClaimFor(config, run.userId),
    retryWait: config.retryWait,
  };
  return client.workflow.start<typeof ingestDocument>(INGEST_WORKFLOW_TYPE, {
    workflowId: ingestWorkflowId(run.documentId),
    taskQueue: config.temporal.taskQueue,
    args: [args],
    // The run's workflow tasks, and activities that say no priority of their own, go by the tenant.
    ...(config.worker.fairness.on
      ? { priority: tenantPriority(run.userId, config.worker.fairness.weights[run.userId]) }
      : {}),
    typedSearchAttributes: new TypedSearchAttributes([
      { key: DocumentIdKey, value: run.documentId },
      { key: DatasetIdKey, value: run.datasetId },
      { key: PipelineStatusKey, value: 'PENDING' },
    ]),
    ...runDescription(run),
  });
}

/** A start does not wait longer than this for the workflow engine to accept it. */
const START_DEADLINE_MS = 10_000;

/**
 * The task id of a document's first run, derived from the document id. Starting the first run
 * again (a client retry, or an upload of the same content after the API died between storing
 * and starting) reuses it, so the workflow answers the duplicate from its state instead of
 * processing the document twice. Keyed with the server secret (SLUICE_SECRET_KEY) when one is
 * set, so that a caller who learns a document id cannot compute the task id and claim the task
 * first (docs/workflow-contract.md, the trust model); without one it is a plain hash.
 */
export function firstTaskId(documentId: string, serverSecret: string | null): string {
  const message = `sluice:first-task:${documentId}`;
  const hex = (serverSecret === null ? createHash('sha256') : createHmac('sha256', serverSecret))
    .update(message)
    .digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A document's first run, with its derived task id, under START_DEADLINE_MS. */
export async function startFirstRun(
  client: Client,
  config: Readonly<SluiceConfig>,
  doc: Omit<IngestRun, 'taskId'>,
): Promise<string> {
  const taskId = firstTaskId(doc.documentId, config.api.sessionSecret);
  try {
    await client.connection.withDeadline(Date.now() + START_DEADLINE_MS, () =>
      startIngestRun(client, config, { ...doc, taskId }),
    );
  } catch (error) {
    // An open run already works on the document (a start repeated by a client retry).
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
  return taskId;
}

/**
 * A document found again (the same content uploaded twice): its first run may never have started
 * (the process died between storing and starting), so it starts now, with the same derived task
 * id, which is safe either way. Otherwise its latest task is the answer.
 */
export async function ensureFirstRun(
  client: Client,
  config: Readonly<SluiceConfig>,
  doc: DocumentRow,
): Promise<{ taskId: string; started: boolean }> {
  if (doc.last_task_id) return { taskId: doc.last_task_id, started: false };
  return { taskId: await startFirstRun(client, config, runOf(doc)), started: true };
}

/**
 * The caller claim sluice's own clients add to what they start (crypto/callerClaim.ts), whenever
 * they hold SLUICE_SECRET_KEY: a deployment that turns SLUICE_REQUIRE_CALLER_CLAIM on then finds
 * every run already signed.
 */
export function callerClaimFor(config: Readonly<SluiceConfig>, userId: string): { callerClaim?: string } {
  const secret = config.api.sessionSecret;
  return secret === null ? {} : { callerClaim: signCallerClaim(userId, secret) };
}
