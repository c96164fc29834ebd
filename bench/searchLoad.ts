import { sql } from 'kysely';
import type { Adapters } from '../composition/adapters';
import { replaceChunks } from '../db/repositories/chunks';
import { insertDocument } from '../db/repositories/documents';
import { sparseVectorFromTokens } from '../sparse/sparseVector';
import type { TenantScope } from '../stores/ports';
import { tokenize } from '../tokenizer/tokenize';
import { BENCH_MODELS, chunkText, chunkVector, isChinese } from './searchCorpus';
import { BENCH_WINDOWS_PER_CHUNK } from './searchMeasures';

const CHUNKS_PER_DOCUMENT = 1000;

/** How many chunks of the dataset hold every kind of entry (a finished earlier load counts). */
export async function loadedChunks(adapters: Adapters, scope: TenantScope): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    SELECT least((SELECT count(*) FROM chunks WHERE dataset_id = ${scope.datasetId}),
                 (SELECT count(*) FROM dense_vectors WHERE dataset_id = ${scope.datasetId}),
                 (SELECT count(*) FROM language_dense_vectors WHERE dataset_id = ${scope.datasetId}),
                 (SELECT count(DISTINCT chunk_id) FROM window_dense_vectors WHERE dataset_id = ${scope.datasetId}),
                 (SELECT count(*) FROM sparse_vectors WHERE dataset_id = ${scope.datasetId}),
                 (SELECT count(*) FROM keyword_entries WHERE dataset_id = ${scope.datasetId}))::int AS n`.execute(
    adapters.db,
  );
  return rows[0]?.n ?? 0;
}

/**
 * Writes `total` chunks into the dataset directly through the stores (no ingestion): the chunk
 * rows, both dense vectors and BENCH_WINDOWS_PER_CHUNK passage windows, the sparse vectors and the
 * keyword entries, a document at a time.
 */
export async function loadSearchDataset(
  adapters: Adapters,
  scope: TenantScope,
  total: number,
  progress: (line: string) => void,
): Promise<void> {
  for (let first = 0; first < total; first += CHUNKS_PER_DOCUMENT) {
    const documentId = `bench-doc-${first / CHUNKS_PER_DOCUMENT}`;
    const indexes = Array.from({ length: Math.min(CHUNKS_PER_DOCUMENT, total - first) }, (_, i) => first + i);
    await insertDocument(adapters.db, {
      id: documentId,
      user_id: scope.userId,
      dataset_id: scope.datasetId,
      file_name: `${documentId}.md`,
      size_bytes: 1,
      content_sha256: documentId,
      source_object_key: `sources/${documentId}`,
    });
    const texts = indexes.map(chunkText);
    await replaceChunks(
      adapters.db,
      { documentId, generation: 0, ...scope },
      indexes.map((index, i) => ({
        chunkId: `bench-${index}`,
        chunkIndex: i,
        kind: 'child' as const,
        parentId: null,
        childRange: null,
        sectionPath: [`Document ${documentId}`, `Section ${Math.floor(i / 50)}`],
        text: texts[i] as string,
        charCount: (texts[i] as string).length,
        tokenCount: 80,
      })),
    );
    const record = (index: number, vector: number[]) => ({ chunkId: `bench-${index}`, documentId, vector });
    await adapters.vectors.upsertDense(
      scope,
      BENCH_MODELS.first,
      indexes.map((index) => record(index, chunkVector(index, BENCH_MODELS.first.dimension))),
    );
    for (const language of ['en', 'zh'] as const) {
      const model = BENCH_MODELS[language];
      const ofLanguage = indexes.filter((index) => isChinese(index) === (language === 'zh'));
      await adapters.vectors.upsertLanguageDense(
        scope,
        model,
        ofLanguage.map((index) => record(index, chunkVector(index, model.dimension, 1))),
      );
      await adapters.vectors.upsertPassageWindows(
        scope,
        model,
        ofLanguage.map((index) => ({
          chunkId: `bench-${index}`,
          documentId,
          vectors: Array.from({ length: BENCH_WINDOWS_PER_CHUNK }, (_, w) =>
            chunkVector(index, model.dimension, 2 + w),
          ),
        })),
      );
    }
    const tokens = texts.map((text) => tokenize(text));
    await adapters.vectors.upsertSparse(
      scope,
      indexes.map((index, i) => ({
        chunkId: `bench-${index}`,
        documentId,
        sparse: sparseVectorFromTokens(tokens[i] as string[]),
      })),
    );
    await adapters.keywords.bulkIndex(
      scope,
      indexes.map((index, i) => ({
        chunkId: `bench-${index}`,
        documentId,
        fileName: `${documentId}.md`,
        text: texts[i] as string,
        tokens: tokens[i] as string[],
      })),
    );
    progress(`loaded ${first + indexes.length} of ${total} chunks`);
  }
  await sql`ANALYZE`.execute(adapters.db);
}
