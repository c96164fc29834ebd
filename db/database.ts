import type { SourceKind, SourceSettings, SyncReport } from '../contracts/sources';
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { PipelineStatus, StageStatus, Stage } from '../contracts/stages';
import type {
  ChunkingChoice,
  ChunkingParameters,
  ChunkingPlan,
  ChunkingStrategy,
  PlanPreviewChunk,
  PlanReviewMode,
  PlanState,
} from '../contracts/chunkingPlan';
import type { FailureCode } from '../contracts/failureCodes';
import type { OcrPageReport } from '../contracts/ocrPages';
import type { DocumentMetadata } from '../contracts/documentMetadata';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
/** Postgres returns bigint as string; we only store sizes that fit in a JS number. */
type BigIntColumn = ColumnType<string, number | string, number | string>;

export type DocumentLifecycle = 'ACTIVE' | 'DELETING';

export interface DocumentsTable {
  id: string;
  user_id: string;
  dataset_id: string;
  file_name: string;
  file_type: string | null;
  size_bytes: BigIntColumn;
  /** Markdown bytes its latest parse produced; counts against the quota with size_bytes. */
  produced_bytes: ColumnType<string, number | string | undefined, number | string>;
  /** The bytes of the passage-window vectors charged to the user's quota (activities/stages/windowQuota.ts). */
  window_bytes: ColumnType<string, number | string | undefined, number | string>;
  content_sha256: string;
  source_object_key: string;
  lifecycle: Generated<DocumentLifecycle>;
  last_task_id: string | null;
  /** The chunk set search serves (chunks.generation); a rebuild's success switches it. */
  index_generation: Generated<number>;
  /** The task whose success last built or switched the document's index. */
  index_task_id: string | null;
  /** The strategy or parameters chosen at upload (contracts/chunkingPlan.ts ChunkingChoice); null: the dataset's. */
  chunking_choice: ColumnType<ChunkingChoice | null, string | null | undefined, string | null>;
  /** The document's own metadata (contracts/documentMetadata.ts), written as JSON text. */
  metadata: ColumnType<DocumentMetadata, string | undefined, string>;
  /** Counts the metadata's changes: a copy in a search index replaces only an older one. */
  metadata_version: Generated<number>;
  /** The system field updatedAt: when the metadata last changed (or the document was registered). */
  metadata_updated_at: Timestamp;
  /** Pages (PDF), slides (PPTX) or sheets (XLSX) the latest parse found; null for other types. */
  page_count: ColumnType<number | null, number | null | undefined, number | null>;
  /** The language of the document's text (tokenizer/textLanguage.ts), set by its parse. */
  language: ColumnType<string | null, string | null | undefined, string | null>;
  /** Where the document came from: `upload`, or the synced source that keeps it. */
  source: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ParseTasksTable {
  task_id: string;
  document_id: string;
  retry_of_task_id: string | null;
  owner_run_chain: string;
  detected_type: string | null;
  markdown_object_key: string | null;
  token_plan_object_key: string | null;
  parse_ms: number | null;
  /** The pages the parse OCR'd (jsonb, written as JSON text); null when it OCR'd none. */
  ocr_pages: ColumnType<OcrPageReport[] | null, string | null | undefined, string | null>;
  /** The chunk set this task's stages build: the document's served one, or a rebuild's new one. */
  chunk_generation: Generated<number>;
  /** The plan a rebuild chunks with (contracts/chunkingPlan.ts); null: the deployment's chunker settings. */
  chunking_plan: ColumnType<ChunkingPlan | null, string | null | undefined, string | null>;
  /** The external parsing service's task for this task's CLEANING, so a new attempt resumes it; null for built-in parsing. */
  remote_parse_task_id: ColumnType<string | null, string | null | undefined, string | null>;
  remote_parse_started_at: NullableTimestamp;
  /** A replacement's new source (db/migrations/20261214T0100_content_versions.ts); null: the document's own. */
  source_object_key: ColumnType<string | null, string | null | undefined, string | null>;
  source_sha256: ColumnType<string | null, string | null | undefined, string | null>;
  source_size_bytes: ColumnType<string | null, number | null | undefined, number | null>;
  source_file_name: ColumnType<string | null, string | null | undefined, string | null>;
  /** The document's source before this task's success switched to the task's own: removed by the clean-up. */
  replaced_source_object_key: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
}

type StageColumns = {
  [S in Stage as `${Lowercase<S>}_status`]: Generated<StageStatus>;
} & {
  [S in Stage as `${Lowercase<S>}_started_at`]: NullableTimestamp;
} & {
  [S in Stage as `${Lowercase<S>}_ms`]: number | null;
};

export type PipelinesTable = StageColumns & {
  task_id: string;
  document_id: string;
  pipeline_status: Generated<PipelineStatus>;
  failed_stage: Stage | null;
  recover_from_stage: Stage | null;
  failure_code: FailureCode | null;
  failure_reason: string | null;
  superseded_by_task_id: string | null;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
};

export interface ChunksTable {
  chunk_id: string;
  document_id: string;
  user_id: string;
  dataset_id: string;
  chunk_index: number;
  kind: 'parent' | 'child';
  parent_id: string | null;
  /** On parents: chunk_index range of their children. */
  child_first_index: number | null;
  child_last_index: number | null;
  section_path: string[];
  text: string;
  char_count: number;
  token_count: number;
  dense_status: Generated<StageStatus>;
  sparse_status: Generated<StageStatus>;
  keyword_status: Generated<StageStatus>;
  embedding_model: string | null;
  embedding_dimension: number | null;
  /** Lowest confidence (0..1) of the OCR'd pages the chunk's text came from; null: from a text layer. */
  ocr_confidence: ColumnType<number | null, number | null | undefined, number | null>;
  /** The second dense vector's checkpoint (its model is the chunk language's; see language_dense_vectors). */
  language_dense_status: Generated<StageStatus>;
  language_embedding_model: string | null;
  /** Which chunk set of the document the row belongs to (documents.index_generation is the served one). */
  generation: Generated<number>;
  /** SHA-256 of `text`, the embedded text: a rebuild reuses the vector of an old chunk with the same hash. */
  text_sha256: Buffer | null;
  /** The first and last page its text spans (chunker/chunkPages.ts); null without pages. */
  page_first: ColumnType<number | null, number | null | undefined, number | null>;
  page_last: ColumnType<number | null, number | null | undefined, number | null>;
  /** The dense vector was copied from an older generation's chunk instead of embedded. */
  vector_reused: Generated<boolean>;
  /** The second dense vector and its windows were copied from an older generation's chunk. */
  language_vector_reused: Generated<boolean>;
  created_at: Timestamp;
}

export interface EmbeddingConfigsTable {
  id: Generated<number>;
  user_id: string;
  is_default: boolean;
  provider: string;
  model: string;
  dimension: number;
  base_url: string | null;
  /** AES-256-GCM, `s1.<key id>.<base64(iv ‖ tag ‖ ciphertext)>` (older rows: the bare base64). Never the plain key. */
  api_key_encrypted: string | null;
  created_at: Timestamp;
}

export type ModelPurpose = 'chat' | 'vision' | 'rerank';

/**
 * A user's chat or vision model on an OpenAI-compatible /chat/completions endpoint, or their
 * reranker on a `/rerank` endpoint of one of the shapes rerank/rerankProtocol.ts names.
 */
export interface ModelConfigsTable {
  user_id: string;
  purpose: ModelPurpose;
  base_url: string;
  model: string;
  /** Sealed like embedding_configs.api_key_encrypted; never the plain key. */
  api_key_encrypted: string | null;
  /** The reranker's request shape (`tei`, `cohere`); null for the other purposes. */
  api_shape: 'tei' | 'cohere' | null;
  created_at: Timestamp;
}

/** What a chat model wrote for one chunk: its existence is the chunk's enrichment checkpoint. */
export interface ChunkEnrichmentsTable {
  chunk_id: string;
  document_id: string;
  keywords: string[];
  questions: string[];
  model: string;
  created_at: Timestamp;
}

/** What a model wrote in CLEANING for one image or table: its existence is that piece's checkpoint. */
export interface CleaningEnrichmentsTable {
  document_id: string;
  kind: 'image' | 'table';
  /** sha256 of the image's bytes or the table's text, as sent to the model. */
  input_sha256: string;
  /** The description or repaired table; null when the answer was refused and the original stays. */
  output: string | null;
  model: string;
  created_at: Timestamp;
}

export type NotificationStatus = 'PENDING' | 'DELIVERED' | 'FAILED';

export interface NotificationsTable {
  id: Generated<number>;
  task_id: string;
  document_id: string;
  event: string;
  payload: ColumnType<unknown, string, string>;
  status: Generated<NotificationStatus>;
  attempts: Generated<number>;
  failure_code: FailureCode | null;
  last_error: string | null;
  created_at: Timestamp;
  delivered_at: NullableTimestamp;
}

export interface DenseVectorsTable {
  chunk_id: string;
  document_id: string;
  user_id: string;
  dataset_id: string;
  model: string;
  dimension: number;
  /** A pgvector `vector`, written and read in its text form `[1,2,3]` (stores/pgvectorIndex.ts). */
  vector: string;
  updated_at: Timestamp;
}

/** Each chunk's vector from the model of its language (the second dense vector); the same shape. */
export type LanguageDenseVectorsTable = DenseVectorsTable;

/**
 * A chunk's passage windows (chunker/passageWindows.ts) from the second dense vector's model:
 * several rows per chunk, keyed `<chunk id>#<window>`, read by chunk id (no HNSW index).
 */
export interface WindowDenseVectorsTable extends DenseVectorsTable {
  window_id: string;
}

export interface SparseVectorsTable {
  chunk_id: string;
  document_id: string;
  user_id: string;
  dataset_id: string;
  indices: number[];
  weights: number[];
  updated_at: Timestamp;
}

export interface KeywordEntriesTable {
  chunk_id: string;
  document_id: string;
  user_id: string;
  dataset_id: string;
  file_name: string;
  body: string;
  tokens: string;
  /** Generated by Postgres from `tokens`; never written. */
  tsv: ColumnType<string, never, never>;
  updated_at: Timestamp;
}

export interface UsersTable {
  id: string;
  display_name: string | null;
  created_at: Timestamp;
}

/** Signed-out admin sessions, until they would have expired (api/adminSessions.ts). */
export interface AdminSessionRevocationsTable {
  session_id: string;
  expires_at: Timestamp;
}

export interface ApiKeysTable {
  /** The public lookup half of the key; the secret half is stored only as its SHA-256. */
  id: string;
  user_id: string;
  label: string | null;
  secret_sha256: string;
  created_at: Timestamp;
  last_used_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
}

/** A dataset's settings document (contracts/datasetSettings.ts); no row means the defaults. */
export interface DatasetSettingsTable {
  user_id: string;
  dataset_id: string;
  settings: ColumnType<unknown, string, string>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** One task's chunking plan (contracts/chunkingPlan.ts PlannedChunking), one row per task. */
export interface ChunkingPlansTable {
  task_id: string;
  document_id: string;
  state: PlanState;
  strategy: ChunkingStrategy;
  parameters: ColumnType<ChunkingParameters, string, string>;
  reason: string;
  recommended: ColumnType<ChunkingPlan, string, string>;
  review: PlanReviewMode;
  preview: ColumnType<PlanPreviewChunk[], string, string>;
  chunk_count: number;
  confirmed_by: string | null;
  created_at: Timestamp;
  confirmed_at: NullableTimestamp;
  executed_at: NullableTimestamp;
}

/** A source a dataset follows (contracts/sources.ts): its kind's settings, sealed credentials, schedule and last sync. */
export interface SourcesTable {
  id: string;
  user_id: string;
  dataset_id: string;
  kind: SourceKind;
  config: ColumnType<SourceSettings, string, string>;
  /** The kind's credentials (an S3 secret key), sealed with SLUICE_SECRET_KEY; null without any. */
  sealed_secret: string | null;
  every_seconds: number | null;
  cron: string | null;
  paused: Generated<boolean>;
  last_sync: ColumnType<SyncReport | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A source's ledger: what its last sync saw at a path, and the document holding that content. */
export interface SourceEntriesTable {
  source_id: string;
  path: string;
  document_id: string | null;
  etag: string | null;
  mtime: NullableTimestamp;
  size_bytes: ColumnType<string | null, number | null | undefined, number | null>;
  content_sha256: string | null;
  /** The code the content was refused with (a type, a size): not read again until it changes. */
  failure_code: string | null;
  seen_sync_id: string;
  updated_at: Timestamp;
}

export interface Database {
  sources: SourcesTable;
  source_entries: SourceEntriesTable;
  documents: DocumentsTable;
  parse_tasks: ParseTasksTable;
  pipelines: PipelinesTable;
  chunks: ChunksTable;
  embedding_configs: EmbeddingConfigsTable;
  notifications: NotificationsTable;
  dense_vectors: DenseVectorsTable;
  language_dense_vectors: LanguageDenseVectorsTable;
  window_dense_vectors: WindowDenseVectorsTable;
  sparse_vectors: SparseVectorsTable;
  keyword_entries: KeywordEntriesTable;
  users: UsersTable;
  api_keys: ApiKeysTable;
  admin_session_revocations: AdminSessionRevocationsTable;
  dataset_settings: DatasetSettingsTable;
  chunking_plans: ChunkingPlansTable;
  model_configs: ModelConfigsTable;
  chunk_enrichments: ChunkEnrichmentsTable;
  cleaning_enrichments: CleaningEnrichmentsTable;
}

export type DocumentRow = Selectable<DocumentsTable>;
export type NewDocument = Insertable<DocumentsTable>;
export type ParseTaskRow = Selectable<ParseTasksTable>;
export type PipelineRow = Selectable<PipelinesTable>;
export type PipelineUpdate = Updateable<PipelinesTable>;
export type ChunkRow = Selectable<ChunksTable>;
export type NewChunk = Insertable<ChunksTable>;
export type UserRow = Selectable<UsersTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
