import path from 'node:path';
import type { ChunkerOptions } from '../../chunker/chunkMarkdown';
import type { ChunkDraft } from '../../contracts/chunk';
import type { ChunkingPlan, ChunkingStrategy } from '../../contracts/chunkingPlan';
import type { CpuPool } from '../../cpuPool/pool';
import type { CorpusDoc } from './corpusDocs';
import { materialise } from './sources/docSource';

export { CORPUS, TUNED_SETS, type CorpusDoc, type Language } from './corpusDocs';

export interface ParsedDoc {
  doc: CorpusDoc;
  documentId: string;
  fileName: string;
  markdown: string;
  /** Child chunks only: what the pipeline embeds, indexes and retrieves. */
  children: ChunkDraft[];
  /** The plan the document was chunked under. */
  plan: ChunkingPlan;
}

/**
 * `recommended`: CHUNKING as a dataset with the default settings (strategy `auto`) runs it, under
 * the plan recommended from the document's structure. `general`: every document under the `general`
 * strategy's heading-aware parent/child rule, the one recipe there was before chunking strategies.
 */
export type EvalChunking = 'recommended' | 'general';

/** Where the eval caches its pinned packages and the office files written from them. */
export function evalDocsDir(dataDir: string): string {
  return path.join(dataDir, 'eval-docs');
}

/** CLEANING and CHUNKING as the worker runs them: the same CPU pool tasks, the same options. */
export async function parseDoc(
  cpu: CpuPool,
  doc: CorpusDoc,
  chunking: ChunkerOptions,
  mode: EvalChunking,
  cacheDir: string,
  childTokens: Partial<Record<ChunkingStrategy, number>> = {},
): Promise<ParsedDoc> {
  const file = materialise(cacheDir, doc.source);
  const markdown = await cpu.parse(file, doc.type);
  const documentId = `eval-${doc.id}`;
  const generalParameters = {
    childTokens: chunking.maxTokens,
    overlapTokens: chunking.overlapTokens,
    parentTokens: null,
  };
  const limits = { maxChunks: chunking.maxChunks ?? Number.MAX_SAFE_INTEGER };
  // As activities/stages/chunkingPlan.ts proposes for a dataset whose chunking section is empty.
  const proposed: ChunkingPlan =
    mode === 'recommended'
      ? (
          await cpu.propose({
            documentId,
            markdown,
            fileType: doc.type,
            dataset: { strategy: 'auto' },
            document: null,
            generalParameters,
            limits,
          })
        ).plan
      : { strategy: 'general', parameters: generalParameters, reason: 'the eval was asked for general chunking' };
  const plan = withChildTokens(proposed, childTokens[proposed.strategy]);
  const chunks = await cpu.chunkWithPlan(documentId, markdown, plan, limits);
  return {
    doc,
    documentId,
    fileName: path.basename(file),
    markdown,
    children: chunks.filter((c) => c.kind === 'child'),
    plan,
  };
}

/** The plan with another child size (the chunk-size lever); its overlap kept within a quarter of it. */
function withChildTokens(plan: ChunkingPlan, childTokens: number | undefined): ChunkingPlan {
  if (childTokens === undefined) return plan;
  const { overlapTokens, parentTokens } = plan.parameters;
  return {
    ...plan,
    parameters: {
      childTokens,
      overlapTokens: Math.min(overlapTokens, Math.floor(childTokens / 4)),
      parentTokens: parentTokens === null ? null : Math.max(parentTokens, childTokens),
    },
  };
}
