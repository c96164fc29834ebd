import { z } from 'zod';
import { documentMetadataSchema, metadataPatchSchema } from '../contracts/documentMetadata';
import { documentPlanSchema } from './planSchemas';
import { CHUNKING_STRATEGIES } from '../contracts/chunkingPlan';
import { PIPELINE_STATUSES, STAGE_STATUSES, STAGES } from '../contracts/stages';
import { DEPENDENCIES } from './health/dependencyChecks';

/** Request and response shapes of the HTTP API: validation and the OpenAPI document both come from here. */

export const datasetIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/)
  .describe('dataset name: 1-64 characters of letters, digits, ".", "_" and "-"');

export const documentIdSchema = z
  .string()
  .regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/)
  .describe('document id (a UUID)');

export const datasetParams = z.object({ datasetId: datasetIdSchema });
export const documentParams = z.object({ id: documentIdSchema });

/** PATCH /v1/documents/{id}/metadata: the keys to set, or to remove with null. */
export const metadataPatchBody = metadataPatchSchema.describe(
  'keys to set to a value, or to remove with null; the result stays within the bounds of metadata',
);

export const metadataPatchedSchema = z.object({
  documentId: z.string(),
  metadata: documentMetadataSchema,
  metadataVersion: z.number().int(),
  updatedAt: z.string(),
  copyWorkflowId: z
    .string()
    .describe('the workflow that copies the change to the stores that filter on a copy (OpenSearch, Qdrant)'),
});

export const errorResponseSchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), requestId: z.string() }),
});

const pipelineStatus = z.enum(PIPELINE_STATUSES);

export const documentViewSchema = z.object({
  documentId: z.string(),
  datasetId: z.string(),
  fileName: z.string(),
  fileType: z.string().nullable(),
  sizeBytes: z.number(),
  contentSha256: z.string(),
  lifecycle: z.enum(['ACTIVE', 'DELETING']),
  createdAt: z.string(),
  taskId: z.string().nullable(),
  pipelineStatus,
  currentStage: z.enum(STAGES).nullable(),
  stages: z.array(z.object({ stage: z.enum(STAGES), status: z.enum(STAGE_STATUSES), ms: z.number().nullable() })),
  chunks: z.object({
    total: z.number(),
    active: z.number(),
    dense: z.number(),
    sparse: z.number(),
    keyword: z.number(),
  }),
  failure: z.object({ stage: z.string().nullable(), code: z.string(), reason: z.string().nullable() }).nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  workflowUrl: z.string().describe("the document's ingestion workflow in the Temporal Web UI"),
  plan: documentPlanSchema.describe("the latest chunking plan's state, strategy and reason; null before the plan step"),
  metadata: documentMetadataSchema.describe("the document's own metadata"),
  metadataVersion: z.number().int().describe('counts the changes of the metadata'),
  updatedAt: z.string().describe('when the metadata last changed (the system field updatedAt)'),
  pageCount: z.number().int().nullable().describe('pages, slides or sheets its parse found'),
  language: z.string().nullable().describe("the language of the document's text"),
  source: z.string().describe('where the document came from: upload, or the synced source that keeps it'),
});
export type DocumentView = z.output<typeof documentViewSchema>;

export const listDocumentsQuery = z.object({
  status: pipelineStatus.optional().describe('only documents whose latest task has this status'),
  limit: z.number().int().min(1).max(100).default(20),
  cursor: z.string().max(200).optional().describe('nextCursor of the previous page'),
});

export const documentPageSchema = z.object({
  documents: z.array(documentViewSchema),
  nextCursor: z.string().nullable(),
});

export const uploadResultSchema = z.object({
  documentId: z.string(),
  taskId: z.string().nullable(),
  status: pipelineStatus,
  duplicate: z.boolean().describe('true when the dataset already held this content: the existing document is returned'),
  fileName: z.string(),
  fileType: z.string().nullable(),
  sizeBytes: z.number(),
  contentSha256: z.string(),
});
export type UploadResult = z.output<typeof uploadResultSchema>;

export const batchResultSchema = z.object({
  results: z.array(
    z.object({
      index: z.number().int(),
      fileName: z.string(),
      httpStatus: z.number().int().describe('what a single upload of this file would have answered'),
      document: uploadResultSchema.nullable(),
      error: z.object({ code: z.string(), message: z.string() }).nullable(),
    }),
  ),
  complete: z
    .boolean()
    .describe('false when the server stopped reading the request (a file over the size limit, too many files)'),
});
export type BatchResult = z.output<typeof batchResultSchema>;

export const retryAcceptedSchema = z.object({
  documentId: z.string(),
  taskId: z.string(),
  via: z.enum(['update', 'signal-with-start']),
});
export const deleteAcceptedSchema = z.object({
  documentId: z.string(),
  workflowId: z.string(),
  alreadyRunning: z.boolean(),
});

export const datasetsResponseSchema = z.object({
  datasets: z.array(
    z.object({
      datasetId: z.string(),
      documents: z.number(),
      succeeded: z.number(),
      failed: z.number(),
      bytes: z.number(),
    }),
  ),
  usage: z.object({ documents: z.number(), bytes: z.number(), maxDocuments: z.number(), maxBytes: z.number() }),
});

export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  checks: z.object({
    database: z.enum(['ok', 'failing']),
    temporal: z.enum(['ok', 'failing']),
    keywordIndex: z.enum(['ok', 'failing']),
    objectStore: z.enum(['ok', 'failing']),
  }),
  down: z.array(z.enum(DEPENDENCIES)).describe('the dependencies that did not answer within 2 s'),
});

export const adminSessionBody = z.object({ apiKey: z.string().min(1).max(200) });

export const embeddingConfigSchema = z.object({
  source: z
    .enum(['user', 'deployment', 'environment'])
    .describe(
      "the caller's own configuration, or the deployment default (stored, or from the environment) that applies without one",
    ),
  provider: z.string(),
  baseUrl: z.string().nullable().describe("the OpenAI-compatible endpoint; null: the provider's default"),
  model: z.string(),
  dimension: z.number().int(),
  apiKey: z
    .string()
    .nullable()
    .describe('masked: at most the last 4 characters; null when none is stored. The key itself is never returned'),
  updatedAt: z.string().nullable(),
});

export const embeddingConfigResponse = z.object({
  config: embeddingConfigSchema
    .nullable()
    .describe('null: no configuration reaches the caller, and documents fail VECTORIZING with LLM_CONFIG_MISSING'),
  applies: z
    .boolean()
    .describe('false when this deployment embeds with a built-in model rather than stored configurations'),
});

export const embeddingConfigBody = z.object({
  baseUrl: z
    .string()
    .min(1)
    .max(2000)
    .optional()
    .describe('an http(s) URL of an OpenAI-compatible API, e.g. https://api.openai.com/v1 (the default)'),
  model: z.string().min(1).max(200),
  dimension: z.number().int().min(1).max(65536),
  apiKey: z.string().min(1).max(4096).optional().describe('write-only; omit it to keep the stored key'),
});

export const embeddingConfigSaved = z.object({
  config: embeddingConfigSchema,
  reembedSuggested: z
    .boolean()
    .describe(
      'the model or dimension changed: vectors made before are stale; re-embed each dataset (POST /v1/datasets/{datasetId}/reembed)',
    ),
  datasets: z.array(z.string()).describe('the datasets to re-embed when reembedSuggested'),
});

export const embeddingTestResult = z.object({
  ok: z.boolean(),
  source: embeddingConfigSchema.shape.source,
  model: z.string(),
  configuredDimension: z.number().int(),
  returnedDimension: z.number().int().nullable(),
  message: z.string(),
});

export const reembedResultSchema = z.object({
  model: z.string(),
  dimension: z.number().int(),
  started: z.array(z.object({ documentId: z.string(), taskId: z.string() })),
  skipped: z.array(z.object({ documentId: z.string(), reason: z.string() })),
});

/** The plan of a rebuild: any of a strategy and its sizes; an empty body rebuilds under the deployment's settings. */
export const rebuildBody = z
  .strictObject({
    strategy: z.enum(CHUNKING_STRATEGIES).optional(),
    childTokens: z.number().int().min(8).max(8192).optional(),
    overlapTokens: z.number().int().min(0).max(4096).optional(),
    parentTokens: z.number().int().min(8).max(65536).nullable().optional(),
  })
  .describe('The chunking plan to rebuild with; sizes left out are the defaults.');

export const rebuildStartedSchema = z.object({
  documentId: z.string(),
  taskId: z.string().describe('the rebuild task; `GET /v1/documents/{id}` follows it'),
  rebuildOfTaskId: z.string().describe('the succeeded task whose markdown is re-chunked'),
});

export const datasetRebuildStartedSchema = z.object({
  workflowId: z.string().describe('the dataset rebuild workflow (one per user and dataset at a time)'),
  alreadyRunning: z
    .boolean()
    .describe('true: a rebuild of this dataset was running already, and this request joined it'),
  maxOpen: z.number().int().describe('at most this many document runs open at once (SLUICE_REBUILD_MAX_OPEN)'),
});
