import type { TextLanguage } from '../../search/languageRouting';
import type { Reranker } from '../../rerank/rerankerResolver';
import { rerankHits } from '../../search/rerankHits';
import { fuseRun, type FusionSpec, type QuestionRun } from './rankers';

/** The list name the reranked order is kept under in each question's lists. */
export const RERANKED_LIST = 'reranked';

/**
 * Each question's search-default candidates (the first `candidates` fused hits) reordered by the
 * reranker, as search reorders them (search/rerankHits.ts), kept as the question's RERANKED_LIST so
 * the report ranks it like any list. A question whose call failed keeps the fused order and is
 * counted.
 */
export async function addRerankedLists(
  runs: QuestionRun[],
  spec: FusionSpec,
  languageOfChunk: (chunkId: string) => TextLanguage | null,
  textOf: (chunkId: string) => string,
  reranker: Reranker,
  candidates: number,
): Promise<{ questions: number; failed: number; p50Ms: number }> {
  let failed = 0;
  const times: number[] = [];
  for (const run of runs) {
    const fused = fuseRun(run, spec, languageOfChunk)
      .slice(0, candidates)
      .map((hit) => ({ chunkId: hit.chunkId, score: hit.score, text: textOf(hit.chunkId) }));
    const { hits, report } = await rerankHits(run.question.question, fused, reranker);
    if (!report.applied) failed += 1;
    if ('ms' in report) times.push(report.ms);
    run.lists[RERANKED_LIST] = hits.map((hit) => ({ chunkId: hit.chunkId, score: hit.score }));
  }
  times.sort((a, b) => a - b);
  return { questions: runs.length, failed, p50Ms: times[Math.floor(times.length / 2)] ?? 0 };
}
