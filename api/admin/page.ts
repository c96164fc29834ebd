import type { DatasetSummary } from '../../db/repositories/documentCatalog';
import type { DocumentView } from '../schemas';
import { documentTable } from './documentRows';
import { hitTestSection } from './hitTestSection';
import { planDialog } from './planDialog';
import { modelSection } from './modelSection';
import { sourceSection } from './sourceSection';
import { esc, formatBytes } from './html';

export { renderDocumentRow } from './documentRows';
export { esc } from './html';

/**
 * The admin page, rendered on the server as plain HTML. `app.js` adds the behaviour (upload,
 * retry, delete, search, live stage updates over SSE); without it the page still shows state.
 */

export const FILTERS = ['PENDING', 'PROCESSING', 'SUCCESS', 'FAILED'] as const;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<link rel="stylesheet" href="/admin/app.css">
<script src="/admin/adminApi.js" defer></script>
<script src="/admin/app.js" defer></script>
<script src="/admin/hitTest.js" defer></script>
<script src="/admin/planReview.js" defer></script>
<script src="/admin/modelConfigs.js" defer></script>
<script src="/admin/sources.js" defer></script>
</head>
<body>
${body}
</body>
</html>
`;
}

export function renderLogin(message: string | null = null): string {
  return layout(
    'sluice admin — sign in',
    `<main class="login">
<h1>sluice admin</h1>
<form id="login-form">
<label for="api-key">API key</label>
<input id="api-key" name="apiKey" type="password" autocomplete="off" required placeholder="sk_…">
<button type="submit">Sign in</button>
</form>
<p id="login-error" class="error" role="alert">${esc(message ?? '')}</p>
<p class="hint">Create a key with <code>sluice users create &lt;user&gt;</code>.</p>
</main>`,
  );
}

export interface DashboardModel {
  userId: string;
  datasets: DatasetSummary[];
  usage: { documents: number; bytes: number; maxDocuments: number; maxBytes: number };
  dataset: string | null;
  status: (typeof FILTERS)[number] | null;
  documents: DocumentView[];
  nextCursor: string | null;
  failed: DocumentView[];
  maxFileBytes: number;
  batchMaxFiles: number;
}

function datasetLink(dataset: string, status: string | null, label: string, current: boolean, cursor?: string): string {
  const query = new URLSearchParams({ dataset });
  if (status) query.set('status', status);
  if (cursor) query.set('cursor', cursor);
  return `<a href="/admin?${esc(query.toString())}"${current ? ' class="current" aria-current="page"' : ''}>${esc(label)}</a>`;
}

/** Filled in by app.js from GET /v1/embedding-config; the API key field is write-only. */
function embeddingSection(): string {
  return `<section id="embedding-section">
<h2>Embedding provider</h2>
<p id="embedding-current" class="muted">loading…</p>
<form id="embedding-form">
<label>base URL <input name="baseUrl" type="url" placeholder="https://api.openai.com/v1"></label>
<label>model <input name="model" required maxlength="200"></label>
<label>dimension <input name="dimension" type="number" min="1" max="65536" required></label>
<label>API key <input name="apiKey" type="password" autocomplete="off" placeholder="leave empty to keep the stored key"></label>
<button type="submit">Save</button>
<button type="button" id="embedding-test">Test</button>
<button type="button" id="embedding-delete" class="danger">Delete</button>
</form>
<p id="embedding-status" role="status"></p>
<ul id="embedding-reembed" class="upload-results"></ul>
</section>`;
}

export function renderDashboard(m: DashboardModel): string {
  const datasets = m.datasets.length
    ? `<ul class="datasets">${m.datasets
        .map(
          (d) =>
            `<li>${datasetLink(d.datasetId, null, d.datasetId, d.datasetId === m.dataset)} <small class="muted">${d.documents} docs · ${d.succeeded} ok${d.failed ? ` · <span class="error">${d.failed} failed</span>` : ''} · ${esc(formatBytes(d.bytes))}</small></li>`,
        )
        .join('')}</ul>`
    : '<p class="muted">No datasets yet: upload a file into a new one.</p>';

  const documents = m.dataset
    ? `<section id="documents-section">
<h2>Documents in <em id="current-dataset">${esc(m.dataset)}</em></h2>
<nav class="filters">${[datasetLink(m.dataset, null, 'all', m.status === null), ...FILTERS.map((f) => datasetLink(m.dataset ?? '', f, f.toLowerCase(), m.status === f))].join(' ')}</nav>
${documentTable(m.documents, { showDataset: false, empty: 'No documents here yet.', id: 'documents' })}
${m.nextCursor ? `<p>${datasetLink(m.dataset, m.status, 'older documents →', false, m.nextCursor)}</p>` : ''}
</section>
<section id="search-section">
<h2>Search <em>${esc(m.dataset)}</em></h2>
<form id="search-form" data-dataset="${esc(m.dataset)}"><input name="q" type="search" required placeholder="words or a phrase" aria-label="search text"><button type="submit">Search</button></form>
<ol id="search-results" class="search-results"></ol>
</section>
${hitTestSection(m.dataset)}
${sourceSection(m.dataset)}
${planDialog()}`
    : '';

  return layout(
    'sluice admin',
    `<header>
<h1>sluice admin</h1>
<span class="muted">signed in as <strong id="user-id">${esc(m.userId)}</strong> · ${m.usage.documents}/${m.usage.maxDocuments} documents · ${esc(formatBytes(m.usage.bytes))} of ${esc(formatBytes(m.usage.maxBytes))}</span>
<button type="button" id="logout">Sign out</button>
</header>
<main>
<section id="datasets-section">
<h2>Datasets</h2>
${datasets}
</section>
<section id="upload-section">
<h2>Upload</h2>
<form id="upload-form">
<label>dataset <input name="dataset" required pattern="[A-Za-z0-9][A-Za-z0-9._\\-]{0,63}" value="${esc(m.dataset ?? '')}"></label>
<input name="files" type="file" multiple required aria-label="files">
<button type="submit">Upload</button>
<small class="muted">up to ${m.batchMaxFiles} files of at most ${esc(formatBytes(m.maxFileBytes))}</small>
</form>
<ul id="upload-results" class="upload-results" role="status"></ul>
</section>
${embeddingSection()}
${modelSection()}
${documents}
<section id="failed-section">
<h2>Failed documents</h2>
${documentTable(m.failed, { showDataset: true, empty: 'Nothing has failed.', id: 'failed' })}
</section>
</main>`,
  );
}
