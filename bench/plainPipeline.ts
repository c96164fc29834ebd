import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { replaceChunks } from '../db/repositories/chunks';
import type { SluiceConfig } from '../config/config';
import type { SparseVector } from '../contracts/chunk';
import { STAGES, type Stage } from '../contracts/stages';
import type { CpuPool } from '../cpuPool/pool';
import { detectFileType, type SourceFileType } from '../parsers/detectFileType';
import { objectKeys } from '../stores/objectKeys';
import { pipelineChunks } from './pipelineChunks';
import type { Adapters } from '../composition/adapters';

export interface BenchDoc {
  documentId: string;
  userId: string;
  datasetId: string;
  fileName: string;
  sourceKey: string;
}

export interface PlainOutcome {
  chunks: number;
  stageMs: Record<Stage, number>;
  error: string | null;
}

/**
 * Side (a): one document through the same parse, chunk, embed, tokenize and index functions (the
 * CPU ones in a warm CPU pool, as the worker runs them) and the same store adapters as the
 * activities, in a plain sequence, ending in the same searchable state: markdown, chunk rows
 * (search reads their texts and section paths), dense and sparse vectors, keyword entries. What
 * it leaves out is exactly what durability costs: Temporal, the task and pipeline rows, every
 * status update, the token plan object, idempotency deletes and heartbeats.
 */
export async function plainDocument(
  config: Readonly<SluiceConfig>,
  adapters: Adapters,
  cpu: CpuPool,
  doc: BenchDoc,
): Promise<PlainOutcome> {
  const stageMs = Object.fromEntries(STAGES.map((s) => [s, 0])) as Record<Stage, number>;
  let mark = performance.now();
  const lap = (stage: Stage) => {
    const now = performance.now();
    stageMs[stage] += now - mark;
    mark = now;
  };
  const scope = { userId: doc.userId, datasetId: doc.datasetId };
  try {
    const { markdown, type } = await parseSource(config, adapters, cpu, doc);
    await adapters.objects.putText(objectKeys.markdown(doc.userId, doc.documentId, 'plain'), markdown);
    lap('CLEANING');
    const drafts = await pipelineChunks(cpu, config, doc.documentId, markdown, type);
    const children = drafts.filter((d) => d.kind === 'child');
    // The same refusal CHUNKING makes, so both sides fail the same pages.
    if (children.length === 0) throw new Error('EMPTY_DOCUMENT');
    const { removedChunkIds } = await replaceChunks(
      adapters.db,
      { documentId: doc.documentId, generation: 0, ...scope },
      drafts,
    );
    await adapters.vectors.deleteChunks(scope, removedChunkIds);
    lap('CHUNKING');
    const embedder = await adapters.embedders.forUser(doc.userId);
    for (let i = 0; i < children.length; i += config.embedding.batchSize) {
      const batch = children.slice(i, i + config.embedding.batchSize);
      const vectors = await embedder.embed(batch.map((c) => c.text));
      const records = batch.map((c, j) => ({
        chunkId: c.chunkId,
        documentId: doc.documentId,
        vector: vectors[j] as number[],
      }));
      await adapters.vectors.upsertDense(scope, { model: embedder.model, dimension: embedder.dimension }, records);
    }
    lap('VECTORIZING');
    const tokens = (await cpu.tokenize(children.map((c) => ({ chunk_id: c.chunkId, text: c.text })))).map(
      ([, terms]) => terms,
    );
    lap('PRETOKENIZE');
    const entries = children.map((c, i) => ({
      chunkId: c.chunkId,
      documentId: doc.documentId,
      fileName: doc.fileName,
      text: c.text,
      tokens: tokens[i] as string[],
    }));
    const { failedChunkIds } = await adapters.keywords.bulkIndex(scope, entries);
    if (failedChunkIds.length > 0) throw new Error(`${failedChunkIds.length} keyword entries refused`);
    lap('KEYWORD_INDEXING');
    const vectors = await cpu.sparse(tokens);
    const sparse = children.map((c, i) => ({
      chunkId: c.chunkId,
      documentId: doc.documentId,
      sparse: vectors[i] as SparseVector,
    }));
    await adapters.vectors.upsertSparse(scope, sparse);
    lap('SPARSE_VECTORIZING');
    return { chunks: children.length, stageMs, error: null };
  } catch (error) {
    return { chunks: 0, stageMs, error: error instanceof Error ? error.message.slice(0, 200) : String(error) };
  }
}

/** Source object → temp file → detected type → markdown, as CLEANING does it. */
async function parseSource(
  config: Readonly<SluiceConfig>,
  adapters: Adapters,
  cpu: CpuPool,
  doc: BenchDoc,
): Promise<{ markdown: string; type: SourceFileType }> {
  await fs.mkdir(config.tmpDir, { recursive: true });
  const tmpFile = path.join(config.tmpDir, `${doc.documentId}-plain`);
  try {
    await pipeline(await adapters.objects.getStream(doc.sourceKey), createWriteStream(tmpFile));
    const handle = await fs.open(tmpFile, 'r');
    const head = Buffer.alloc(8192);
    const { bytesRead } = await handle.read(head, 0, head.length, 0).finally(() => handle.close());
    const type = detectFileType(head.subarray(0, bytesRead), doc.fileName);
    return { markdown: await cpu.parse(tmpFile, type), type };
  } finally {
    await fs.rm(tmpFile, { force: true });
  }
}
