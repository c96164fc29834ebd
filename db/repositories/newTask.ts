import type { Kysely } from 'kysely';
import type { OcrPageReport } from '../../contracts/ocrPages';
import type { ChunkingPlan } from '../../contracts/chunkingPlan';
import type { Stage } from '../../contracts/stages';
import type { Database, PipelineRow } from '../database';
import { stageColumns } from './stageColumns';

export interface NewTask {
  taskId: string;
  documentId: string;
  ownerRunChain: string;
  retryOfTaskId?: string | null;
  detectedType?: string | null;
  markdownObjectKey?: string | null;
  tokenPlanObjectKey?: string | null;
  parseMs?: number | null;
  /** The OCR'd pages of an inherited CLEANING, as parse_tasks.ocr_pages holds them. */
  ocrPages?: OcrPageReport[] | null;
  /** The chunk set the task builds; absent → 0, a document's first set. */
  chunkGeneration?: number;
  /** The plan a rebuild chunks with. */
  chunkingPlan?: ChunkingPlan | null;
  /** Stages taken over from an older task: they start as SUCCESS with the durations they took. */
  inherited?: Partial<Record<Stage, number | null>>;
  /** A replacement's new source (and a retry of one): absent → the document's own. */
  sourceObjectKey?: string | null;
  sourceSha256?: string | null;
  sourceSizeBytes?: number | null;
  sourceFileName?: string | null;
}

/**
 * A task, its pipeline row and the document's pointer to its latest task, written by one
 * statement (the foreign keys are checked at its end). Returns the pipeline row as stored,
 * defaults included, saving the caller a read-back.
 */
export async function insertTaskWithPipeline(db: Kysely<Database>, task: NewTask): Promise<PipelineRow> {
  const pipeline: Record<string, unknown> = { task_id: task.taskId, document_id: task.documentId };
  for (const [stage, ms] of Object.entries(task.inherited ?? {}) as [Stage, number | null][]) {
    const cols = stageColumns(stage);
    pipeline[cols.status] = 'SUCCESS';
    pipeline[cols.ms] = ms;
  }
  return db
    .with('new_task', (q) =>
      q.insertInto('parse_tasks').values({
        task_id: task.taskId,
        document_id: task.documentId,
        owner_run_chain: task.ownerRunChain,
        retry_of_task_id: task.retryOfTaskId ?? null,
        detected_type: task.detectedType ?? null,
        markdown_object_key: task.markdownObjectKey ?? null,
        token_plan_object_key: task.tokenPlanObjectKey ?? null,
        parse_ms: task.parseMs ?? null,
        ocr_pages: task.ocrPages && task.ocrPages.length > 0 ? JSON.stringify(task.ocrPages) : null,
        chunk_generation: task.chunkGeneration ?? 0,
        chunking_plan: task.chunkingPlan ? JSON.stringify(task.chunkingPlan) : null,
        source_object_key: task.sourceObjectKey ?? null,
        source_sha256: task.sourceSha256 ?? null,
        source_size_bytes: task.sourceSizeBytes ?? null,
        source_file_name: task.sourceFileName ?? null,
      }),
    )
    .with('latest_task', (q) =>
      q
        .updateTable('documents')
        .set({ last_task_id: task.taskId, updated_at: new Date() })
        .where('id', '=', task.documentId),
    )
    .insertInto('pipelines')
    .values(pipeline as never)
    .returningAll()
    .executeTakeFirstOrThrow();
}
