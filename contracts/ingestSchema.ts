import { z } from 'zod';
import { ChunkingPlanSchema } from './chunkingPlanSchema';
import { chunkingChoiceSchema } from './datasetSettings';
import { documentMetadataSchema } from './documentMetadata';
import { FAILURE_CODES } from './failureCodes';
import { UUID } from './uuid';
import { PIPELINE_STATUSES, STAGE_STATUSES, STAGES } from './stages';

/**
 * The workflow's input and result as zod schemas: the one source of the TypeScript types
 * (contracts/ingest.ts), of prepareTask's validation, and of the JSON Schema published for
 * callers in other languages (`npm run contract` → docs/contract/). Plain JSON only.
 * The workflow imports the types alone, so zod never enters its sandbox bundle.
 */

const id = z.string().min(1).max(200);
// Document and task ids name rows, object keys and temp paths: a lower-case UUID, nothing a path can be made of.
const uuid = z.string().regex(UUID, 'a lower-case UUID');

/** Where a service put the file: a key in sluice's object store, or an s3:// URI in its bucket. */
export const IngestSourceSchema = z.union([
  z.strictObject({
    objectKey: z
      .string()
      .min(1)
      .max(1024)
      .describe('Key in the configured bucket (S3) or relative to the local store root; not under documents/'),
  }),
  z.strictObject({
    uri: z
      .string()
      .regex(/^s3:\/\/[^/]+\/.+/)
      .max(1100)
      .describe('s3://<configured bucket>/<key>'),
  }),
]);

export const IngestInputSchema = z
  .object({
    documentId: uuid
      .optional()
      .describe(
        'Required without `source`. With `source` it may be left out: it is then read from the workflow id `ingest:<documentId>`.',
      ),
    source: IngestSourceSchema.optional().describe(
      'The file to register as a new document before processing it (starting from any Temporal SDK).',
    ),
    fileName: z
      .string()
      .min(1)
      .max(1024)
      .optional()
      .describe('With `source`: the name shown for the document (the type is detected from the bytes).'),
    userId: id,
    datasetId: id,
    taskId: uuid
      .optional()
      .describe(
        'Idempotency key of this attempt; left out → the run chain id (stable across activity retries and resets).',
      ),
    retryOfTaskId: uuid.optional().describe('Internal: set by a retry run.'),
    reembedOfTaskId: uuid.optional().describe('Internal: set by a re-embedding run.'),
    rebuildOfTaskId: uuid
      .optional()
      .describe('Internal: set by a rebuild run (re-chunks the stored markdown of this succeeded task).'),
    replaceOfTaskId: uuid
      .optional()
      .describe(
        "Internal: set by a replacement of the document's content (takes over this finished task; needs `replacement` and `taskId`).",
      ),
    replacement: z
      .strictObject({
        sha256: z.string().regex(/^[0-9a-f]{64}$/, 'a lower-case hex SHA-256'),
        sizeBytes: z.number().int().nonnegative(),
        fileName: z.string().min(1).max(1024),
      })
      .optional()
      .describe(
        "Internal: with replaceOfTaskId, the new content stored under the run's task id (objectKeys.version): its hash, size and name.",
      ),
    chunkingPlan: ChunkingPlanSchema.optional().describe(
      'With rebuildOfTaskId: the plan to re-chunk with; left out → the deployment chunker settings.',
    ),
    chunkingChoice: chunkingChoiceSchema
      .optional()
      .describe(
        "With `source`: the document's own chunking strategy and parameters, over the dataset's (the bounds of its chunking settings).",
      ),
    metadata: documentMetadataSchema
      .optional()
      .describe(
        'With `source`: the document\'s metadata (docs/search.md, "Metadata"), filterable in search and editable later without re-embedding.',
      ),
    callerClaim: z
      .string()
      .max(100)
      .optional()
      .describe(
        'Where the deployment requires it (SLUICE_REQUIRE_CALLER_CLAIM): the HMAC of `userId` under the server key, which the API and the CLI add. Without it such a deployment refuses the run (CALLER_CLAIM_INVALID).',
      ),
    retryWait: z
      .string()
      .regex(/^\d{1,9} ?(ms|s|m|h|d|seconds?|minutes?|hours?|days?)$/, 'a duration like 30d, 12h or 1 hour')
      .optional()
      .describe('How long a failed run waits for `retry` (e.g. "30d"); default 30d.'),
  })
  .refine((input) => input.source !== undefined || input.documentId !== undefined, {
    message: 'give documentId or source',
  })
  .refine((input) => input.source === undefined || input.fileName !== undefined, {
    message: 'source needs fileName',
    path: ['fileName'],
  })
  .refine(
    (input) =>
      (input.replaceOfTaskId === undefined) === (input.replacement === undefined) &&
      (input.replaceOfTaskId === undefined || (input.taskId !== undefined && input.documentId !== undefined)),
    { message: 'replaceOfTaskId and replacement go together, with documentId and taskId', path: ['replacement'] },
  )
  // A registered document got its choice at upload; a run cannot change it afterwards.
  .refine((input) => input.chunkingChoice === undefined || input.source !== undefined, {
    message: 'chunkingChoice needs source',
    path: ['chunkingChoice'],
  })
  // A registered document got its metadata at upload; it changes through PATCH, not a run.
  .refine((input) => input.metadata === undefined || input.source !== undefined, {
    message: 'metadata needs source',
    path: ['metadata'],
  });

const stageStatuses = z.object(
  Object.fromEntries(STAGES.map((stage) => [stage, z.enum(STAGE_STATUSES)])) as Record<
    (typeof STAGES)[number],
    z.ZodEnum<{ [K in (typeof STAGE_STATUSES)[number]]: K }>
  >,
);

export const IngestResultSchema = z.object({
  documentId: z.string(),
  taskId: z.string(),
  status: z.enum(PIPELINE_STATUSES),
  failedStage: z.enum(STAGES).nullable(),
  failureCode: z.enum(FAILURE_CODES).nullable(),
  chunkCount: z.number().int(),
  duplicate: z
    .boolean()
    .describe(
      'True when this start was answered from an earlier run (same task id, or the same content already in the dataset).',
    ),
});

export const IngestProgressSchema = z.object({
  documentId: z.string(),
  taskId: z.string(),
  status: z.enum(PIPELINE_STATUSES),
  currentStage: z.enum(STAGES).nullable(),
  stages: stageStatuses,
  chunkCount: z.number().int(),
  failureCode: z.enum(FAILURE_CODES).nullable(),
  waitingForRetry: z.boolean(),
  waiting: z
    .object({
      for: z.string().describe('What the run waits for: "Postgres", "the embedding provider".'),
      code: z.enum(FAILURE_CODES).describe("The failed attempt's code."),
      stage: z.enum(STAGES).nullable(),
      attempt: z.number().int().describe('The attempt that runs next, or runs now.'),
      since: z.string().describe('When the stage first failed (ISO 8601).'),
    })
    .nullable()
    .optional()
    .describe('Set while an activity of the run rides out an outage: retried, not failed. Null otherwise.'),
});

export const RetryAcceptedSchema = z.object({ retryOfTaskId: z.string(), taskId: z.string() });

export type IngestSource = z.infer<typeof IngestSourceSchema>;
export type IngestInputShape = z.infer<typeof IngestInputSchema>;
export type IngestResultShape = z.infer<typeof IngestResultSchema>;
export type IngestProgressShape = z.infer<typeof IngestProgressSchema>;
