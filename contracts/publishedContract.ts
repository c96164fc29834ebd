import { z } from 'zod';
import { INGEST_WORKFLOW_TYPE } from './ingest';
import { IngestInputSchema, IngestProgressSchema, IngestResultSchema, RetryAcceptedSchema } from './ingestSchema';

/**
 * What `npm run contract` writes to docs/contract/: the workflow's input, result, query answer
 * and update answer as JSON Schema, and one file naming the rest of the interface. Generated from
 * the schemas the code uses; a unit test fails when the committed files differ.
 */

const schema = (name: string, zodSchema: z.ZodType) => ({
  $id: `https://sluice.dev/contract/${name}`,
  ...z.toJSONSchema(zodSchema, { io: 'input' }),
});

const INTERFACE = {
  workflowType: INGEST_WORKFLOW_TYPE,
  workflowId: 'ingest:<documentId> (documentId a lower-case UUID the caller picks; one open run per document)',
  taskQueue: 'SLUICE_TASK_QUEUE of the deployment (default sluice-ingest)',
  input: 'ingest-input.schema.json',
  result: 'ingest-result.schema.json',
  queries: {
    progress: { args: [], returns: 'ingest-progress.schema.json' },
    chunkingPlan: {
      args: [],
      returns:
        'null before the plan step, else { state: WAIT_CONFIRM|CONFIRMED|EXECUTED, plan: { strategy, parameters: { childTokens, overlapTokens, parentTokens }, reason }, recommended, review: auto|required, autoConfirmAfter, preview: [{ chunkIndex, kind, sectionPath, text, tokenCount }], chunkCount } (contracts/chunkingPlan.ts PlannedChunking)',
    },
  },
  signals: {
    retry: { args: [], effect: 'a FAILED run waiting for retry continues-as-new as a take-over of its failed task' },
  },
  updates: {
    requestRetry: {
      args: [],
      returns: 'retry-accepted.schema.json',
      rejects:
        'RETRY_VALIDATION_FAILED:<reason> when the run is not FAILED and waiting, or a retry was already accepted',
    },
    confirmPlan: {
      args: [
        '{ strategy?: general|qa|table|page|one, parameters?: { childTokens?, overlapTokens?, parentTokens? }, confirmedBy? } ({} confirms the plan as proposed)',
      ],
      returns: 'the plan that will be executed: { strategy, parameters, reason }',
      rejects:
        'PLAN_VALIDATION_FAILED:<reason> when no plan waits for confirmation, the strategy is unknown or the parameters are invalid',
    },
  },
  searchAttributes: {
    DocumentId: 'Keyword',
    DatasetId: 'Keyword',
    PipelineStage: 'Keyword: the stage running or last run',
    PipelineStatus: 'Keyword: PENDING | PROCESSING | AWAITING_CONFIRMATION | SUCCESS | FAILED',
    FailureCode: 'Keyword: a failure code, empty unless FAILED',
  },
};

export function contractFiles(): Record<string, string> {
  const files: Record<string, unknown> = {
    'ingest-input.schema.json': schema('ingest-input', IngestInputSchema),
    'ingest-result.schema.json': schema('ingest-result', IngestResultSchema),
    'ingest-progress.schema.json': schema('ingest-progress', IngestProgressSchema),
    'retry-accepted.schema.json': schema('retry-accepted', RetryAcceptedSchema),
    'interface.json': INTERFACE,
  };
  return Object.fromEntries(
    Object.entries(files).map(([name, value]) => [name, `${JSON.stringify(value, null, 2)}\n`]),
  );
}
