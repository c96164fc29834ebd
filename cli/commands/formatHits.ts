import type { SearchResult } from '../../search/hybridSearch';

export function formatHits(hits: SearchResult[]): string {
  if (hits.length === 0) return '  (no hits)';
  return hits
    .map((h, i) => {
      const where = [h.fileName, ...h.sectionPath].join(' › ');
      const snippet = h.text.replace(/\s+/g, ' ').slice(0, 160);
      const via = Object.entries(h.ranks)
        .map(([name, rank]) => `${name}#${rank}`)
        .join(' ');
      return `  ${i + 1}. ${where}  (rrf ${h.score.toFixed(4)}; ${via})\n     ${snippet}`;
    })
    .join('\n');
}
