import { hash } from 'node:crypto';
import type { ChunkDraft } from '../contracts/chunk';

/**
 * The drafts of a document's chunk set of `generation`: a rebuild's chunks live beside the served
 * ones until the switch (docs/rebuild.md), so their ids must differ even where index and text are
 * the same. Generation 0, a document's first set, keeps the chunker's ids as they always were; a
 * later generation's ids are derived from them and the generation, so they stay deterministic and
 * a re-run of the same rebuild upserts onto the same rows and vectors.
 */
export function inGeneration(drafts: ChunkDraft[], generation: number): ChunkDraft[] {
  if (generation === 0) return drafts;
  const idOf = (chunkId: string) => hash('sha256', `${generation}\u0000${chunkId}`, 'hex').slice(0, 32);
  return drafts.map((d) => ({
    ...d,
    chunkId: idOf(d.chunkId),
    parentId: d.parentId === null ? null : idOf(d.parentId),
  }));
}
