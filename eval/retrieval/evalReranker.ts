import type { OutboundPolicy } from '../../outbound/outboundHttp';
import { callReranker } from '../../rerank/rerankClient';
import type { TextLanguage } from '../../search/languageRouting';
import type { ParsedDoc } from './corpus';
import type { RankerResult } from './markdownReport';
import type { Options } from './options';
import { singleList, type QuestionRun, type Ranker } from './rankers';
import { addRerankedLists, RERANKED_LIST } from './rerankedList';
import { SEARCH_DEFAULT } from './reportedRankers';

export const RERANKED_NAME = 'fused (search default), reranked';

/**
 * `--reranker`: the search default's candidates of every question reordered by the reranker, added
 * to the report's rankers (after the search default) so every split shows it; answers the line that
 * says what was measured.
 */
export async function measureReranker(
  reranker: NonNullable<Options['reranker']>,
  runs: QuestionRun[],
  languageOfChunk: (chunkId: string) => TextLanguage | null,
  docs: readonly ParsedDoc[],
  outbound: OutboundPolicy,
  rankers: Ranker[],
): Promise<string> {
  const texts = new Map(docs.flatMap((d) => d.children.map((c) => [c.chunkId, c.text] as const)));
  const settings = { baseUrl: reranker.url, model: reranker.model, shape: reranker.shape, apiKey: null };
  const call = { outbound, timeoutMs: 60_000, maxResponseBytes: 1024 * 1024 };
  const measured = await addRerankedLists(
    runs,
    SEARCH_DEFAULT,
    languageOfChunk,
    (id) => texts.get(id) ?? '',
    { model: reranker.model, rerank: (query, list) => callReranker(settings, query, list, call) },
    reranker.candidates,
  );
  rankers.splice(1, 0, singleList(RERANKED_NAME, RERANKED_LIST));
  return `Reranker ${reranker.model} (${reranker.shape} shape) over the search default's first ${reranker.candidates} candidates: ${measured.questions} questions, ${measured.failed} calls failed (fused order kept), ${measured.p50Ms} ms p50 a call.`;
}

/** The held-out families' recall@5 per language, the search default against it reranked. */
export function rerankGainLine(fused: RankerResult, reranked: RankerResult): string {
  const parts = Object.entries(fused.heldOut.byLanguage).map(([language, scores]) => {
    const after = reranked.heldOut.byLanguage[language]?.recallAt5 ?? NaN;
    return `${language} ${scores.recallAt5.toFixed(3)} → ${after.toFixed(3)}`;
  });
  return `Held-out recall@5, search default → reranked: ${parts.join(', ')}.`;
}
