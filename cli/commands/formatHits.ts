import type { SearchResult } from '../../search/hybridSearch';
import type { RerankReport } from '../../search/rerankHits';
import type { RankedResult, SearchResponse } from '../../search/searchDataset';

/** The text with its highlighted spans in [brackets], where the hit has them. */
function marked(hit: Partial<Pick<RankedResult, 'highlights'>> & { text: string }): string {
  if (!hit.highlights || hit.highlights.length === 0) return hit.text;
  let out = '';
  let at = 0;
  for (const { start, end } of hit.highlights) {
    out += `${hit.text.slice(at, start)}[${hit.text.slice(start, end)}]`;
    at = end;
  }
  return out + hit.text.slice(at);
}

/** What a hit carries beyond its text, on lines of their own. */
function extras(hit: Partial<RankedResult>): string[] {
  const lines: string[] = [];
  if (hit.metadata && Object.keys(hit.metadata).length > 0)
    lines.push(`     metadata: ${JSON.stringify(hit.metadata)}`);
  if (hit.parent) lines.push(`     parent: ${hit.parent.text.replace(/\s+/g, ' ').slice(0, 240)}`);
  return lines;
}

/** The hits, best first, numbered from `first`; a reranked hit shows the reranker's score beside its fused one. */
export function formatHits(
  hits: (SearchResult & { fusedScore?: number; rerankScore?: number } & Partial<RankedResult>)[],
  first = 1,
): string {
  if (hits.length === 0) return '  (no hits)';
  return hits
    .map((h, i) => {
      const where = [h.fileName, ...h.sectionPath].join(' › ');
      const snippet = marked(h).replace(/\s+/g, ' ').slice(0, 160);
      const via = Object.entries(h.ranks)
        .map(([name, rank]) => `${name}#${rank}`)
        .join(' ');
      const reranked = h.rerankScore === undefined ? '' : `rerank ${h.rerankScore.toFixed(3)}; `;
      return [
        `  ${first + i}. ${where}  (${reranked}rrf ${(h.fusedScore ?? h.score).toFixed(4)}; ${via})`,
        `     ${snippet}`,
        ...extras(h),
      ].join('\n');
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

export function formatSearch(response: SearchResponse, page = 1, limit = response.hits.length): string {
  const rerank = formatRerank(response.rerank);
  const more = response.nextOffset === null ? [] : [`  more: --page ${page + 1}`];
  return [...(rerank ? [rerank] : []), formatHits(response.hits, (page - 1) * limit + 1), ...more].join('\n');
}
