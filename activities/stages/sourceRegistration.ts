import { requireCallerClaim } from '../../crypto/callerClaim';
import { Context } from '@temporalio/activity';
import { z } from 'zod';
import { ingestWorkflowId, type PrepareResult } from '../../contracts/ingest';
import { IngestInputSchema, type IngestInputShape } from '../../contracts/ingestSchema';
import { permanentError } from '../../contracts/sluiceError';
import { findPipeline } from '../../db/repositories/pipelines';
import { cleanFileName } from '../../registration/fileName';
import { generalParametersOf, uploadChoiceProblem } from '../../chunker/uploadChoice';
import { datasetChunkingOf } from '../../db/repositories/datasetSettings';
import type { ActivityDeps } from '../deps';
import { keepAlive } from '../heartbeat';
import type { PrepareInput } from './prepareInput';
import { registerSource } from './registerSource';
import { mappingFailures } from '../toApplicationFailure';

type DuplicateAnswer = Extract<PrepareResult, { kind: 'duplicate' }>;

/**
 * The input as the published contract has it, in the run it claims to be: document and task ids
 * are UUIDs (contracts/ingestSchema.ts) and the workflow id is `ingest:<documentId>`, the one
 * open run per document every idempotency argument here relies on.
 */
export function checkedIngestInput(input: PrepareInput): IngestInputShape {
  const checked = IngestInputSchema.safeParse(input);
  if (!checked.success) throw permanentError('INVALID_INGEST_INPUT', z.prettifyError(checked.error));
  const workflowId = Context.current().info.workflowExecution?.workflowId;
  if (workflowId !== ingestWorkflowId(input.documentId)) {
    throw permanentError('INVALID_INGEST_INPUT', `the workflow id must be ingest:${input.documentId}`);
  }
  return checked.data;
}

/**
 * A run started from a named source registers its document first (as an upload would), in its
 * own transaction: a retried activity finds the row and goes on. The result is the input to
 * prepare, or the answer when the content is already another document of the dataset.
 */
export async function registerIfSource(
  deps: ActivityDeps,
  input: PrepareInput,
): Promise<PrepareInput | DuplicateAnswer> {
  const { source, fileName, chunkingChoice, metadata } = checkedIngestInput(input);
  if (source === undefined || fileName === undefined) return input;
  const problem =
    chunkingChoice &&
    uploadChoiceProblem(
      chunkingChoice,
      generalParametersOf(deps.settings.chunking),
      await datasetChunkingOf(deps.db, { userId: input.userId, datasetId: input.datasetId }),
    );
  if (problem) throw permanentError('PLAN_VALIDATION_FAILED', `chunkingChoice: ${problem}`);
  const { row, duplicateOf } = await registerSource(deps, {
    documentId: input.documentId,
    userId: input.userId,
    datasetId: input.datasetId,
    // Named by another service: shown and listed like an upload's name, so cleaned the same way.
    fileName: cleanFileName(fileName),
    source,
    ...(chunkingChoice ? { chunkingChoice } : {}),
    ...(metadata ? { metadata } : {}),
  });
  if (duplicateOf) {
    const pipeline = row.last_task_id ? await findPipeline(deps.db, row.last_task_id) : undefined;
    return {
      kind: 'duplicate',
      taskId: input.taskId,
      documentId: row.id,
      status: pipeline?.pipeline_status ?? 'PENDING',
      failureCode: pipeline?.failure_code ?? null,
    };
  }
  // A retry of a run whose source could not be registered: there is no failed task to take over.
  return row.last_task_id === null ? { ...input, retryOfTaskId: undefined } : input;
}

/** The registration's answer to the workflow: go on to prepareTask, or this other document already has the content. */
export type SourceRegistration = { kind: 'registered' } | DuplicateAnswer;

/**
 * Registration of a named source as a normal activity ahead of prepareTask: copying a large S3
 * object can take longer than a local activity's timeout, and a local activity retried on timeout
 * overlaps the attempt still copying. Here the copy heartbeats, so the server retries it only
 * when its worker is gone; overlapping attempts are safe anyway (registerSource). prepareTask then
 * finds the document registered and does only the bookkeeping.
 */
export function createRegisterSourceActivity(deps: ActivityDeps) {
  return mappingFailures(async function registerSourceRun(input: PrepareInput): Promise<SourceRegistration> {
    requireCallerClaim(deps.callerClaims, input.userId, input.callerClaim);
    const stop = keepAlive();
    try {
      const answer = await registerIfSource(deps, input);
      return 'ownerRunChain' in answer ? { kind: 'registered' } : answer;
    } finally {
      stop();
    }
  });
}
