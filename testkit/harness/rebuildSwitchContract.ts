import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { retireOldChunkSets } from '../../activities/maintenance/retireChunkSets';
import { chunkMarkdown } from '../../chunker/chunkMarkdown';
import { inGeneration } from '../../chunker/chunkGeneration';
import type { ChunkDraft } from '../../contracts/chunk';
import type { Database } from '../../db/database';
import { saveChunkEnrichments } from '../../db/repositories/chunkEnrichments';
import { markDenseReused, reusableVectors } from '../../db/repositories/reusableVectors';
import { replaceChunks } from '../../db/repositories/chunks';
import { deleteDocumentRows, insertDocument } from '../../db/repositories/documents';
import { insertTaskWithPipeline } from '../../db/repositories/newTask';
import { switchServedIndex } from '../../db/repositories/servedIndex';
import { singleEmbedderResolver } from '../../embedders/embedderResolver';
import { createLocalHashEmbedder } from '../../embedders/localHashEmbedder';
import { hybridSearch } from '../../search/hybridSearch';
import { sparseVectorFromTokens } from '../../sparse/sparseVector';
import type { KeywordIndex, VectorStore } from '../../stores/ports';
import { tokenize } from '../../tokenizer/tokenize';

const embedder = createLocalHashEmbedder({ dimension: 16 });
const model = { model: embedder.model, dimension: embedder.dimension };

/** Short sections that chunk the same under both plans, and a long one that does not. */
function markdown(): string {
  let text = '# Switch\n\n';
  for (let i = 0; i < 5; i++) text += `## Part ${i}\n\nThe garnet${i} ferry crosses at dawn.\n\n`;
  text += '## Long\n\n';
  for (let i = 0; i < 80; i++) text += `Line ${i} of the long part names the garnet${i % 5} harbour. `;
  return `${text}\n`;
}

/**
 * The atomic switch of a rebuild (docs/rebuild.md) on one pair of real stores: while a new chunk
 * set is written beside the served one, store by store, search answers from the served set only;
 * the switch is one Postgres statement after which search answers from the new set only; the
 * retirement then leaves only the new set in every store, and the vectors of unchanged texts were
 * copied, not embedded.
 */
export function describeRebuildSwitchContract(
  name: string,
  make: () => Promise<{ db: Kysely<Database>; vectors: VectorStore; keywords: KeywordIndex }>,
): void {
  describe(`${name} (rebuild switch)`, () => {
    it('serves exactly one chunk set at every step of a rebuild, and retires the old one from every store', async () => {
      const { db, vectors, keywords } = await make();
      await keywords.ensureIndex();
      const scope = { userId: `u-${randomUUID()}`, datasetId: `ds-${randomUUID()}` };
      const documentId = randomUUID();
      await insertDocument(db, {
        id: documentId,
        user_id: scope.userId,
        dataset_id: scope.datasetId,
        file_name: 'switch.md',
        size_bytes: 1,
        content_sha256: randomUUID(),
        source_object_key: `sources/${documentId}`,
      });
      const deps = { db, vectors, keywords, embedders: singleEmbedderResolver(embedder), languageEmbedders: null };
      const search = async () =>
        (await hybridSearch(deps, scope, 'garnet2 ferry harbour', 20)).filter((h) => h.documentId === documentId);
      /** The document's hits, all in `ids`, none twice, at least one. */
      const expectServed = async (ids: Set<string>) => {
        const hits = await search();
        expect(hits.length).toBeGreaterThan(0);
        expect(hits.filter((h) => !ids.has(h.chunkId))).toEqual([]);
        expect(new Set(hits.map((h) => h.text)).size).toBe(hits.length);
      };

      const build = async (generation: number, options: { maxTokens: number; overlapTokens: number }) => {
        const taskId = randomUUID();
        await insertTaskWithPipeline(db, {
          taskId,
          documentId,
          ownerRunChain: randomUUID(),
          chunkGeneration: generation,
        });
        const drafts = inGeneration(chunkMarkdown(documentId, markdown(), options), generation);
        await replaceChunks(db, { ...scope, documentId, generation }, drafts);
        return { taskId, children: drafts.filter((d) => d.kind === 'child') };
      };
      const embed = async (children: ChunkDraft[]) => {
        const vectorsOf = await embedder.embed(children.map((c) => c.text));
        await vectors.upsertDense(
          scope,
          model,
          children.map((c, i) => ({ chunkId: c.chunkId, documentId, vector: vectorsOf[i]! })),
        );
        await db
          .updateTable('chunks')
          .set({ dense_status: 'SUCCESS', embedding_model: model.model, embedding_dimension: model.dimension })
          .where(
            'chunk_id',
            'in',
            children.map((c) => c.chunkId),
          )
          .execute();
      };
      const sparse = (children: ChunkDraft[]) =>
        vectors.upsertSparse(
          scope,
          children.map((c) => ({ chunkId: c.chunkId, documentId, sparse: sparseVectorFromTokens(tokenize(c.text)) })),
        );
      const index = async (children: ChunkDraft[]) => {
        const entries = children.map((c) => ({
          chunkId: c.chunkId,
          documentId,
          fileName: 'switch.md',
          text: c.text,
          tokens: tokenize(c.text),
        }));
        expect((await keywords.bulkIndex(scope, entries)).failedChunkIds).toEqual([]);
      };

      // The first build, served.
      const first = await build(0, { maxTokens: 400, overlapTokens: 60 });
      await embed(first.children);
      await sparse(first.children);
      await index(first.children);
      await switchServedIndex(db, first.taskId);
      const oldIds = new Set(first.children.map((c) => c.chunkId));
      await expectServed(oldIds);

      // The rebuild's set, store by store: search keeps serving the old one throughout.
      const second = await build(1, { maxTokens: 100, overlapTokens: 10 });
      const newIds = new Set(second.children.map((c) => c.chunkId));
      await expectServed(oldIds);
      const reusable = await reusableVectors(db, { documentId, generation: 1 }, model);
      const oldTexts = new Set(first.children.map((c) => c.text));
      const unchanged = second.children.filter((c) => oldTexts.has(c.text));
      expect(reusable.map((r) => r.toChunkId).sort()).toEqual(unchanged.map((c) => c.chunkId).sort());
      const copied = await vectors.copyDense(
        scope,
        model,
        reusable.map((r) => ({ ...r, documentId })),
      );
      expect(await markDenseReused(db, copied, model)).toBe(unchanged.length);
      await expectServed(oldIds);
      await embed(second.children.filter((c) => !oldTexts.has(c.text)));
      await expectServed(oldIds);
      await sparse(second.children);
      await expectServed(oldIds);
      await index(second.children);
      await expectServed(oldIds);

      // The switch, then the retirement: the new set alone, in search and in every store.
      await switchServedIndex(db, second.taskId);
      await expectServed(newIds);
      const oldRows = await db
        .selectFrom('chunks')
        .select('chunk_id')
        .where('document_id', '=', documentId)
        .where('generation', '=', 0)
        .execute();
      // Enrichments of both sets (keyed by chunk id, as every per-chunk row is).
      const enrichment = (chunkId: string) => ({ chunkId, keywords: ['garnet2'], questions: [] });
      const allChildren = [...oldIds, ...newIds];
      await saveChunkEnrichments(db, documentId, 'test-model', allChildren.map(enrichment));
      expect(await retireOldChunkSets({ db, vectors, keywords }, { ...scope, documentId })).toBe(oldRows.length);
      await expectServed(newIds);
      expect(await vectors.countForDocument(documentId)).toEqual({ dense: newIds.size, sparse: newIds.size });
      expect(await keywords.countForDocument(documentId)).toBe(newIds.size);
      // No Postgres table keyed by chunk id keeps a row of a retired chunk.
      const retired = oldRows.map((r) => r.chunk_id).filter((id) => !newIds.has(id));
      expect(retired.length).toBeGreaterThan(0);
      expect(await rowsWith(db, 'chunk_id', retired)).toEqual({});
      expect(Object.keys(await rowsWith(db, 'chunk_id', [...newIds])).sort()).toEqual(
        expect.arrayContaining(['chunk_enrichments', 'chunks']),
      );

      // Deletion still leaves nothing in either store.
      await vectors.deleteDocument(scope, documentId);
      await keywords.deleteDocument(scope, documentId);
      expect(await vectors.countForDocument(documentId)).toEqual({ dense: 0, sparse: 0 });
      expect(await keywords.countForDocument(documentId)).toBe(0);
      await deleteDocumentRows(db, documentId);
      expect(await rowsWith(db, 'chunk_id', [...retired, ...newIds])).toEqual({});
      expect(await rowsWith(db, 'document_id', [documentId])).toEqual({});
    });
  });
}

/** Rows per table, of every public table with the column, whose value is one of `values`. */
async function rowsWith(
  db: Kysely<Database>,
  column: 'chunk_id' | 'document_id',
  values: string[],
): Promise<Record<string, number>> {
  const tables = await sql<{ table_name: string }>`
    SELECT table_name FROM information_schema.columns
     WHERE table_schema = 'public' AND column_name = ${column}`.execute(db);
  const found: Record<string, number> = {};
  for (const { table_name } of tables.rows) {
    const { rows } = await sql<{ n: string }>`
      SELECT count(*) AS n FROM ${sql.table(table_name)} WHERE ${sql.ref(column)} = ANY(${values})`.execute(db);
    if (Number(rows[0]?.n ?? 0) > 0) found[table_name] = Number(rows[0]!.n);
  }
  return found;
}
