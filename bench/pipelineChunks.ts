import type { SluiceConfig } from '../config/config';
import type { ChunkDraft } from '../contracts/chunk';
import type { CpuPool } from '../cpuPool/pool';

/**
 * The chunks the worker cuts for a document of a dataset without chunking settings: the plan
 * planChunking proposes (the recommended one, executed without review), chunked the way CHUNKING
 * cuts it. What the benches' plain loop and clean runs must reproduce.
 */
export async function pipelineChunks(
  cpu: CpuPool,
  config: Readonly<SluiceConfig>,
  documentId: string,
  markdown: string,
  fileType: string,
): Promise<ChunkDraft[]> {
  const limits = { maxChunks: config.chunking.maxChunks };
  const { plan } = await cpu.propose({
    documentId,
    markdown,
    fileType,
    dataset: { strategy: 'auto' },
    document: null,
    generalParameters: {
      childTokens: config.chunking.maxTokens,
      overlapTokens: config.chunking.overlapTokens,
      parentTokens: null,
    },
    limits,
  });
  return cpu.chunkWithPlan(documentId, markdown, plan, limits);
}
