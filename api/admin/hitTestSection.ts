import { SEARCH_RETRIEVERS } from '../../contracts/searchSettings';
import { esc } from './html';

/**
 * The retrieval test view of a dataset (api/admin/hitTest.js fills it from POST
 * /v1/datasets/{id}/hit-test): a query, this test's weights, k and dense models (empty = the
 * dataset's own), a filter as JSON (docs/search.md, "Filters"), and a table of every hit with each
 * retriever's rank, the fused score, what language routing multiplied it by, and the chunk's section
 * path and pages. Nothing here changes the dataset's settings.
 */
export function hitTestSection(dataset: string): string {
  const weights = SEARCH_RETRIEVERS.map(
    (r) =>
      `<label>${esc(r)} <input name="weight-${esc(r)}" type="number" min="0" max="100" step="0.05" placeholder="dataset's" size="6"></label>`,
  ).join('\n');
  const columns = ['#', 'fused score', 'rerank score', 'language ×', ...SEARCH_RETRIEVERS, 'section path', 'text']
    .map((c) => `<th scope="col">${esc(c)}</th>`)
    .join('');
  return `<section id="hit-test-section">
<h2>Hit test <em>${esc(dataset)}</em></h2>
<form id="hit-test-form" data-dataset="${esc(dataset)}">
<input name="query" type="search" required maxlength="1000" placeholder="a question or terms" aria-label="hit test query">
<fieldset><legend>weights for this test</legend>
${weights}
<label>k <input name="rrfK" type="number" min="0" max="1000" step="1" placeholder="dataset's" size="5"></label>
<label><input name="dense-user" type="checkbox" checked> user's dense model</label>
<label><input name="dense-language" type="checkbox" checked> language dense model</label>
</fieldset>
<label>filter <input name="filter" type="text" maxlength="65536" size="48" placeholder='{"field": "meta.team", "eq": "search"}' aria-label="hit test filter (JSON)"></label>
<button type="submit">Test</button>
</form>
<p id="hit-test-settings" class="muted" role="status"></p>
<table id="hit-test-results" class="hit-test"><thead><tr>${columns}</tr></thead><tbody></tbody></table>
</section>`;
}
