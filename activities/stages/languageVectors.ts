import type { ChunkSet, ChunkText } from '../../db/repositories/chunks';
import { markLanguageDenseReused, reusableVectors } from '../../db/repositories/reusableVectors';
import { markLanguageDenseEmbedded } from '../../db/repositories/languageDenseChunks';
import type { BgeEmbedders } from '../../embedders/bgeEmbedder';
import { BGE_LANGUAGES } from '../../embedders/bgeModelFiles';
import { embedWithWindows } from '../../embedders/embedWithWindows';
import { dimensionMismatch } from '../../stores/dimensionMismatch';
import { textLanguage } from '../../tokenizer/textLanguage';
import type { ActivityDeps } from '../deps';
import { orTransient } from '../transient';

/**
 * The second dense vector of a batch (VECTORIZING, SLUICE_LANGUAGE_DENSE on or auto with its
 * models): each chunk and each of its passage windows (chunker/passageWindows.ts) embedded by the
 * bge model of its language, upserted and marked per language before the batch counts as done, so a
 * crash redoes at most this batch and a marked chunk is never embedded again.
 */
export async function embedLanguageBatch(
  deps: ActivityDeps,
  embedders: BgeEmbedders,
  scope: { userId: string; datasetId: string },
  documentId: string,
  batch: ChunkText[],
  /** The windows each chunk may have (chunker/passageWindows.ts windowsPerChild). */
  windowsPerChunk: number,
): Promise<void> {
  for (const language of BGE_LANGUAGES) {
    const chunks = batch.filter((c) => textLanguage(c.text) === language);
    if (chunks.length === 0) continue;
    const embedder = embedders.of(language);
    const model = { model: embedder.model, dimension: embedder.dimension };
    const texts = chunks.map((c) => c.text);
    const { vectors, windows } = await orTransient('VECTORIZING_FAILED', `embedding (${embedder.model})`, async () =>
      deps.settings.passageWindows
        ? embedWithWindows(embedder, texts, windowsPerChunk)
        : { vectors: await embedder.embed(texts), windows: [] as number[][][] },
    );
    if (
      vectors.length !== chunks.length ||
      [...vectors, ...windows.flat()].some((v) => v.length !== embedder.dimension)
    ) {
      throw dimensionMismatch(model, deps.vectors.name, `${embedder.model} returned vectors of another size`);
    }
    const records = chunks.map((c, i) => ({ chunkId: c.chunk_id, documentId, vector: vectors[i] as number[] }));
    await orTransient('VECTORIZING_FAILED', 'second dense upsert', () =>
      deps.vectors.upsertLanguageDense(scope, model, records),
    );
    // Every chunk's record, those without windows too: an earlier embedding's windows go.
    if (deps.settings.passageWindows) {
      const windowRecords = chunks.map((c, i) => ({ chunkId: c.chunk_id, documentId, vectors: windows[i] ?? [] }));
      await orTransient('VECTORIZING_FAILED', 'passage windows upsert', () =>
        deps.vectors.upsertPassageWindows(scope, model, windowRecords),
      );
    }
    await markLanguageDenseEmbedded(
      deps.db,
      records.map((r) => r.chunkId),
      embedder.model,
    );
  }
}

/**
 * Copies the second dense vector, with its passage windows, of the set's chunks whose text an
 * older generation of the document embedded by the same model (a rebuild, a replaced content),
 * and marks them (language_vector_reused). Returns how many got a copy.
 */
export async function reuseLanguageVectors(
  deps: ActivityDeps,
  embedders: BgeEmbedders,
  scope: { userId: string; datasetId: string },
  set: ChunkSet,
): Promise<number> {
  let reused = 0;
  for (const language of BGE_LANGUAGES) {
    const embedder = embedders.of(language);
    const model = { model: embedder.model, dimension: embedder.dimension };
    const reusable = await reusableVectors(deps.db, set, model, 'language');
    if (reusable.length === 0) continue;
    const copies = reusable.map((r) => ({ ...r, documentId: set.documentId }));
    const copied = await orTransient('VECTORIZING_FAILED', 'copying reused second vectors', () =>
      deps.vectors.copyLanguageDense(scope, model, copies),
    );
    reused += await markLanguageDenseReused(deps.db, copied, model);
  }
  return reused;
}
