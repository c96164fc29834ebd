/* global document, fetch */
// The admin page's hit test (api/admin/hitTestSection.ts): sends the query with this test's
// adjustments to POST /v1/datasets/{id}/hit-test and shows each hit's rank in every list.
'use strict';

(function () {
  const form = document.querySelector('#hit-test-form');
  if (!form) return;
  // The lists of contracts/searchSettings.ts SEARCH_RETRIEVERS, in its order (the table's columns).
  const RETRIEVERS = ['dense', 'languageDense', 'sparse', 'keyword', 'identifier'];
  const LANGUAGE_NAMES = { en: 'English', zh: 'Chinese' };
  const field = (name) => form.elements.namedItem(name);

  /** Only what the admin typed: an empty field keeps the dataset's own setting. */
  function adjustment() {
    const adjust = {};
    const weights = {};
    for (const retriever of RETRIEVERS) {
      const value = field(`weight-${retriever}`).value;
      if (value !== '') weights[retriever] = Number(value);
    }
    if (Object.keys(weights).length > 0) adjust.weights = weights;
    if (field('rrfK').value !== '') adjust.rrfK = Number(field('rrfK').value);
    const models = [];
    if (field('dense-user').checked) models.push('user');
    if (field('dense-language').checked) models.push('language');
    if (models.length < 2) adjust.denseModels = models;
    return adjust;
  }

  function cell(row, text, className) {
    const td = document.createElement('td');
    td.textContent = text;
    if (className) td.className = className;
    row.appendChild(td);
  }

  // Whether the user's reranker ordered the hits, or why the fused order was kept.
  function rerankText(rerank) {
    if (!rerank.model) return rerank.reason === 'none configured' ? 'no reranker' : `reranker ${rerank.reason}`;
    return rerank.applied
      ? `reranked by ${rerank.model} (${rerank.candidates} candidates, ${rerank.ms} ms)`
      : `fused order kept: ${rerank.reason}`;
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const body = { query: field('query').value, limit: 20, adjust: adjustment() };
    const filterText = field('filter').value.trim();
    if (filterText !== '') {
      try {
        body.filter = JSON.parse(filterText);
      } catch {
        const status = document.querySelector('#hit-test-settings');
        status.textContent = 'FILTER_INVALID: the filter is not JSON';
        status.className = 'error';
        return;
      }
    }
    const response = await fetch(`/v1/datasets/${encodeURIComponent(form.dataset.dataset)}/hit-test`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'x-sluice-admin': '1', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const data = await response.json();
    const status = document.querySelector('#hit-test-settings');
    const rows = document.querySelector('#hit-test-results tbody');
    rows.textContent = '';
    if (response.status !== 200) {
      status.textContent = data && data.error ? `${data.error.code}: ${data.error.message}` : 'request failed';
      status.className = 'error';
      return;
    }
    const s = data.settings;
    status.className = 'muted';
    const wanted = data.wantedLanguage;
    const language = wanted
      ? `answers wanted in ${LANGUAGE_NAMES[wanted.language]}${wanted.named ? ' (named in the query)' : ''}`
      : 'no language wanted';
    status.textContent =
      `k ${s.rrfK} · weights ${RETRIEVERS.map((r) => `${r} ${s.weights[r]}`).join(', ')} · dense models ` +
      `${s.denseModels.join(', ') || 'none'} · ${language} · ${rerankText(data.rerank)} · ${data.hits.length} hits`;
    for (const hit of data.hits) {
      const row = document.createElement('tr');
      row.className = 'hit';
      cell(row, String(hit.rank));
      cell(row, hit.fusedScore.toFixed(4), 'fused-score');
      cell(row, hit.rerankScore === undefined ? '–' : hit.rerankScore.toFixed(3), 'rerank-score');
      cell(row, hit.languageFactor === 1 ? '' : `× ${hit.languageFactor}`, 'language-factor');
      for (const retriever of RETRIEVERS) {
        cell(row, hit.ranks[retriever] === null ? '–' : String(hit.ranks[retriever]), `rank-${retriever}`);
      }
      const pages = !hit.pages
        ? ''
        : hit.pages.first === hit.pages.last
          ? ` (p. ${hit.pages.first})`
          : ` (pp. ${hit.pages.first}–${hit.pages.last})`;
      cell(row, [hit.fileName, ...hit.sectionPath].join(' › ') + pages, 'section-path');
      cell(row, hit.text.length > 200 ? `${hit.text.slice(0, 200)}…` : hit.text, 'hit-text');
      rows.appendChild(row);
    }
  });
})();
