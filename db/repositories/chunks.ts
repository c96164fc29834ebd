import { sql, type Kysely } from 'kysely';
import type { ChunkDraft } from '../../contracts/chunk';
import type { StageStatus } from '../../contracts/stages';
import type { ChunkRow, Database, NewChunk } from '../database';

type ChunkStatusColumn = 'dense_status' | 'sparse_status' | 'keyword_status';

/**
 * One chunk set of a document: the rows of one generation. A stage works on its task's set
 * (parse_tasks.chunk_generation); search serves the document's index_generation (docs/rebuild.md).
 */
export interface ChunkSet {
  documentId: string;
  generation: number;
}

/**
 * Replaces one chunk set of the document in one transaction. Chunk ids are content-derived, so a
 * chunk that survives a re-chunking of the set unchanged keeps its row and statuses (it is not
 * embedded again); the ids that disappeared are returned so their vectors and entries can be
 * removed. The document's other generations are not touched.
 */
export async function replaceChunks(
  db: Kysely<Database>,
  scope: ChunkSet & { userId: string; datasetId: string },
  drafts: ChunkDraft[],
): Promise<{ removedChunkIds: string[] }> {
  return db.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom('chunks')
      .select('chunk_id')
      .where('document_id', '=', scope.documentId)
      .where('generation', '=', scope.generation)
      .execute();
    const keep = new Set(drafts.map((d) => d.chunkId));
    const removedChunkIds = existing.map((r) => r.chunk_id).filter((id) => !keep.has(id));
    // Indexes of surviving chunks can shift, so clear every row that is not kept before inserting
    // (nothing to clear on a first run: no statement, and no 10,000-id list to send).
    if (removedChunkIds.length > 0) {
      await trx
        .deleteFrom('chunks')
        .where('document_id', '=', scope.documentId)
        .where('chunk_id', '=', anyOf(removedChunkIds))
        .execute();
    }
    const rows: NewChunk[] = drafts.map((d) => ({
      chunk_id: d.chunkId,
      document_id: scope.documentId,
      user_id: scope.userId,
      dataset_id: scope.datasetId,
      chunk_index: d.chunkIndex,
      kind: d.kind,
      parent_id: d.parentId,
      child_first_index: d.childRange?.first ?? null,
      child_last_index: d.childRange?.last ?? null,
      section_path: d.sectionPath,
      text: d.text,
      char_count: d.charCount,
      token_count: d.tokenCount,
      ocr_confidence: d.ocrConfidence ?? null,
      page_first: d.pages?.first ?? null,
      page_last: d.pages?.last ?? null,
    }));
    // All rows as one JSON parameter, expanded by Postgres: one statement per document, with
    // nothing for the client to compile or bind per row (a 5,000-chunk document was 11 statements
    // of 7,000 parameters each).
    // The text's hash is taken by Postgres as the row is written: no pass over the texts here.
    await sql`
      INSERT INTO chunks (chunk_id, document_id, user_id, dataset_id, chunk_index, kind, parent_id,
                          child_first_index, child_last_index, section_path, text, char_count, token_count,
                          ocr_confidence, page_first, page_last, generation, text_sha256)
      SELECT chunk_id, document_id, user_id, dataset_id, chunk_index, kind, parent_id,
             child_first_index, child_last_index, section_path, text, char_count, token_count, ocr_confidence,
             page_first, page_last, ${scope.generation}::integer, sha256(convert_to(text, 'UTF8'))
        FROM json_to_recordset(${JSON.stringify(rows)}::json) AS r(
               chunk_id text, document_id text, user_id text, dataset_id text, chunk_index integer, kind text,
               parent_id text, child_first_index integer, child_last_index integer, section_path text[],
               text text, char_count integer, token_count integer, ocr_confidence real,
               page_first integer, page_last integer)
      -- A kept row keeps its statuses; only a parent's child range (other chunker options) and the
      -- pages (a row written before pages were kept) can change.
      ON CONFLICT (chunk_id) DO UPDATE SET child_first_index = excluded.child_first_index,
                                           child_last_index = excluded.child_last_index,
                                           page_first = excluded.page_first,
                                           page_last = excluded.page_last`.execute(trx);
    return { removedChunkIds };
  });
}

/** What the stages read of a chunk: its identity, place and text (not paths, counts or timestamps). */
export type ChunkText = Pick<ChunkRow, 'chunk_id' | 'chunk_index' | 'text'>;

/** A chunk still to be processed by a stage that needs its dense status but not its text. */
export type PendingChunk = Pick<ChunkRow, 'chunk_id' | 'chunk_index' | 'dense_status'>;

/** The chunks of the set that are retrieved (children), in document order. */
export async function listActiveChunks(db: Kysely<Database>, set: ChunkSet): Promise<ChunkText[]> {
  return db
    .selectFrom('chunks')
    .select(['chunk_id', 'chunk_index', 'text'])
    .where('document_id', '=', set.documentId)
    .where('generation', '=', set.generation)
    .where('kind', '=', 'child')
    .orderBy('chunk_index')
    .execute();
}

/** Ids of the set's active chunks: enough to check a token plan covers them, without reading texts. */
export async function listActiveChunkIds(db: Kysely<Database>, set: ChunkSet): Promise<string[]> {
  const rows = await db
    .selectFrom('chunks')
    .select('chunk_id')
    .where('document_id', '=', set.documentId)
    .where('generation', '=', set.generation)
    .where('kind', '=', 'child')
    .execute();
  return rows.map((r) => r.chunk_id);
}

/**
 * Ids of the document's children in every generation: the keyword entries a re-index keeps. The
 * served set stays searchable while a rebuild indexes its new one; the old set's entries go when
 * it is retired (activities/maintenance/retireChunkSets.ts).
 */
export async function listDocumentChunkIds(db: Kysely<Database>, documentId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('chunks')
    .select('chunk_id')
    .where('document_id', '=', documentId)
    .where('kind', '=', 'child')
    .execute();
  return rows.map((r) => r.chunk_id);
}

/** The next page of the set's active chunks whose `column` is not SUCCESS, after a chunk index. */
function pendingPage(
  db: Kysely<Database>,
  set: ChunkSet,
  column: ChunkStatusColumn,
  afterIndex: number,
  limit: number,
) {
  return db
    .selectFrom('chunks')
    .where('document_id', '=', set.documentId)
    .where('generation', '=', set.generation)
    .where('kind', '=', 'child')
    .where(column, '!=', 'SUCCESS')
    .where('chunk_index', '>', afterIndex)
    .orderBy('chunk_index')
    .limit(limit);
}

/** A page of pending chunks with their texts (for a stage that reads them, like embedding). */
export async function listPendingChunkTexts(
  db: Kysely<Database>,
  set: ChunkSet,
  column: ChunkStatusColumn,
  afterIndex: number,
  limit: number,
): Promise<ChunkText[]> {
  return pendingPage(db, set, column, afterIndex, limit).select(['chunk_id', 'chunk_index', 'text']).execute();
}

/** A page of pending chunks without their texts (for a stage that works from the token plan). */
export async function listPendingChunks(
  db: Kysely<Database>,
  set: ChunkSet,
  column: ChunkStatusColumn,
  afterIndex: number,
  limit: number,
): Promise<PendingChunk[]> {
  return pendingPage(db, set, column, afterIndex, limit).select(['chunk_id', 'chunk_index', 'dense_status']).execute();
}

/** `= ANY($1)`: the ids travel as one array parameter, not one parameter each. */
export const anyOf = (ids: string[]) => sql<string>`ANY(${ids}::text[])`;

const ALLOWED_FROM: Record<StageStatus, StageStatus[]> = {
  PENDING: ['PENDING', 'PROCESSING', 'FAILED', 'SUCCESS'],
  PROCESSING: ['PENDING', 'FAILED', 'PROCESSING'],
  SUCCESS: ['PENDING', 'PROCESSING', 'FAILED'],
  FAILED: ['PENDING', 'PROCESSING', 'FAILED'],
};

/**
 * Guarded chunk status change: only the listed source states move (a SUCCESS chunk never
 * becomes FAILED). Returns how many rows changed, so callers can see a refused transition.
 */
export async function setChunkStatus(
  db: Kysely<Database>,
  chunkIds: string[],
  column: ChunkStatusColumn,
  to: StageStatus,
): Promise<number> {
  if (chunkIds.length === 0) return 0;
  const result = await db
    .updateTable('chunks')
    .set({ [column]: to } as Record<ChunkStatusColumn, StageStatus>)
    .where('chunk_id', '=', anyOf(chunkIds))
    .where(column, 'in', ALLOWED_FROM[to])
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Dense SUCCESS together with the model that made the vector (guarded like setChunkStatus). */
export async function markDenseEmbedded(
  db: Kysely<Database>,
  chunkIds: string[],
  model: { model: string; dimension: number },
): Promise<number> {
  if (chunkIds.length === 0) return 0;
  const result = await db
    .updateTable('chunks')
    .set({ dense_status: 'SUCCESS', embedding_model: model.model, embedding_dimension: model.dimension })
    .where('chunk_id', '=', anyOf(chunkIds))
    .where('dense_status', 'in', ALLOWED_FROM.SUCCESS)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Documents of a dataset whose served chunk set has a dense vector from another model or dimension. */
export async function documentsWithStaleVectors(
  db: Kysely<Database>,
  scope: { userId: string; datasetId: string },
  model: { model: string; dimension: number },
): Promise<string[]> {
  const rows = await db
    .selectFrom('chunks')
    .innerJoin('documents', 'documents.id', 'chunks.document_id')
    .select('document_id')
    .distinct()
    .where('chunks.user_id', '=', scope.userId)
    .where('chunks.dataset_id', '=', scope.datasetId)
    .whereRef('chunks.generation', '=', 'documents.index_generation')
    .where('kind', '=', 'child')
    .where('dense_status', '=', 'SUCCESS')
    .where((eb) =>
      eb.or([
        eb('embedding_model', 'is', null),
        eb('embedding_model', '!=', model.model),
        eb('embedding_dimension', '!=', model.dimension),
      ]),
    )
    .execute();
  return rows.map((r) => r.document_id);
}

/**
 * Resetting every chunk of the set (a re-embedding redoes all vectors). Rows already PENDING are
 * left alone: on a first run that is all of them, and an update would rewrite each row.
 */
export async function resetChunkStatus(db: Kysely<Database>, set: ChunkSet, column: ChunkStatusColumn): Promise<void> {
  await db
    .updateTable('chunks')
    .set({ [column]: 'PENDING' } as Record<ChunkStatusColumn, StageStatus>)
    .where('document_id', '=', set.documentId)
    .where('generation', '=', set.generation)
    .where(column, '!=', 'PENDING')
    .execute();
}

export interface ChunkProgress {
  total: number;
  active: number;
  dense: number;
  sparse: number;
  keyword: number;
  /** Active chunks whose dense vector a rebuild copied from an older generation instead of embedding. */
  reused: number;
}

/**
 * Chunk counts of several documents in one grouped query: of the set search serves, or of one
 * named generation (a rebuild's progress).
 */
export async function chunkProgressOf(
  db: Kysely<Database>,
  documentIds: string[],
  generation?: number,
): Promise<Map<string, ChunkProgress>> {
  const progress = new Map<string, ChunkProgress>();
  if (documentIds.length === 0) return progress;
  const rows = await db
    .selectFrom('chunks')
    .innerJoin('documents', 'documents.id', 'chunks.document_id')
    .select((eb) => [
      'document_id',
      eb.fn.countAll<number>().as('total'),
      eb.fn.count<number>('chunk_id').filterWhere('kind', '=', 'child').as('active'),
      eb.fn
        .count<number>('chunk_id')
        .filterWhere('dense_status', '=', 'SUCCESS')
        .filterWhere('kind', '=', 'child')
        .as('dense'),
      eb.fn
        .count<number>('chunk_id')
        .filterWhere('sparse_status', '=', 'SUCCESS')
        .filterWhere('kind', '=', 'child')
        .as('sparse'),
      eb.fn
        .count<number>('chunk_id')
        .filterWhere('keyword_status', '=', 'SUCCESS')
        .filterWhere('kind', '=', 'child')
        .as('keyword'),
      eb.fn.count<number>('chunk_id').filterWhere('vector_reused', '=', true).as('reused'),
    ])
    .where('document_id', 'in', documentIds)
    .where((eb) =>
      generation === undefined
        ? eb('chunks.generation', '=', eb.ref('documents.index_generation'))
        : eb('chunks.generation', '=', generation),
    )
    .groupBy('document_id')
    .execute();
  for (const r of rows) {
    progress.set(r.document_id, {
      total: Number(r.total),
      active: Number(r.active),
      dense: Number(r.dense),
      sparse: Number(r.sparse),
      keyword: Number(r.keyword),
      reused: Number(r.reused),
    });
  }
  return progress;
}

/** One document's chunk counts (the served set, or one generation): zeros when it has none. */
export async function countChunks(
  db: Kysely<Database>,
  documentId: string,
  generation?: number,
): Promise<ChunkProgress> {
  return (
    (await chunkProgressOf(db, [documentId], generation)).get(documentId) ?? {
      total: 0,
      active: 0,
      dense: 0,
      sparse: 0,
      keyword: 0,
      reused: 0,
    }
  );
}
