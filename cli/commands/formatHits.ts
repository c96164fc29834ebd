import type { SearchResult } from '../../search/hybridSearch';
import type { RerankReport } from '../../search/rerankHits';
import type { SearchResponse } from '../../search/searchDataset';

/** The hits, best first; a reranked hit shows the reranker's score beside its fused one. */
export function formatHits(hits: (SearchResult & { fusedScore?: number; rerankScore?: number })[]): string {
  if (hits.length === 0) return '  (no hits)';
  return hits
    .map((h, i) => {
      const where = [h.fileName, ...h.sectionPath].join(' › ');
      const snippet = h.text.replace(/\s+/g, ' ').slice(0, 160);
      const via = Object.entries(h.ranks)
        .map(([name, rank]) => `${name}#${rank}`)
        .join(' ');
      const reranked = h.rerankScore === undefined ? '' : `rerank ${h.rerankScore.toFixed(3)}; `;
      return `  ${i + 1}. ${where}  (${reranked}rrf ${(h.fusedScore ?? h.score).toFixed(4)}; ${via})\n     ${snippet}`;
    })
    .join('\n');
}

/** One line on the reranker, when the user has one: whether it ordered the hits, or why it did not. */
export function formatRerank(report: RerankReport): string | null {
  if (!('model' in report)) return null;
  return report.applied
    ? `  reranked by ${report.model} (${report.candidates} candidates, ${report.ms} ms)`
    : `  fused order kept: ${report.reason} (reranker ${report.model}, ${report.ms} ms)`;
}

export function formatSearch(response: SearchResponse): string {
  const rerank = formatRerank(response.rerank);
  return [...(rerank ? [rerank] : []), formatHits(response.hits)].join('\n');
}
