import { STAGES } from '../../contracts/stages';
import type { DocumentView } from '../schemas';
import { esc, formatBytes } from './html';

// A document as a table row: the server renders the first page, app.js the rows that change.

const STAGE_LABELS: Record<string, string> = {
  CLEANING: 'clean',
  CHUNKING: 'chunk',
  VECTORIZING: 'embed',
  PRETOKENIZE: 'tokens',
  KEYWORD_INDEXING: 'keyword',
  SPARSE_VECTORIZING: 'sparse',
};

function formatMs(ms: number | null): string {
  if (ms === null) return '';
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function chunkCell(doc: DocumentView): string {
  const { active, dense, sparse, keyword } = doc.chunks;
  if (active === 0) return '<span class="muted">–</span>';
  const done = dense + sparse + keyword;
  return `<progress max="${active * 3}" value="${done}"></progress>
<small>${active} chunks · dense ${dense} · sparse ${sparse} · keyword ${keyword}</small>`;
}

export function renderDocumentRow(doc: DocumentView, options: { showDataset: boolean }): string {
  const stages = doc.stages
    .map(
      (s) =>
        `<li data-stage="${esc(s.stage)}" class="stage st-${esc(s.status)}" title="${esc(`${s.stage}: ${s.status}${s.ms !== null ? ` in ${formatMs(s.ms)}` : ''}`)}">${esc(STAGE_LABELS[s.stage] ?? s.stage)}<small>${esc(formatMs(s.ms))}</small></li>`,
    )
    .join('');
  const failure = doc.failure
    ? `<code class="failure-code">${esc(doc.failure.code)}</code> <span class="failure-reason">${esc((doc.failure.reason ?? '').replace(`${doc.failure.code}: `, ''))}</span>${doc.failure.stage ? ` <small class="muted">at ${esc(doc.failure.stage)}</small>` : ''}`
    : '';
  const deleting = doc.lifecycle === 'DELETING';
  // A plan waiting for a person: the run is PROCESSING, parked between CLEANING and CHUNKING.
  const waiting = doc.plan?.state === 'WAIT_CONFIRM' && !deleting;
  return `<tr data-document-id="${esc(doc.documentId)}" data-status="${esc(doc.pipelineStatus)}" data-lifecycle="${esc(doc.lifecycle)}" data-task-id="${esc(doc.taskId ?? '')}">
<td class="file"><span class="file-name">${esc(doc.fileName)}</span><br><code class="doc-id" title="${esc(doc.documentId)}">${esc(doc.documentId.slice(0, 8))}</code>${options.showDataset ? ` <span class="muted">in ${esc(doc.datasetId)}</span>` : ''}<br><small class="muted">${esc(doc.fileType ?? '?')} · ${esc(formatBytes(doc.sizeBytes))}</small></td>
<td class="status"><span class="badge status-${esc(doc.pipelineStatus)}">${esc(doc.pipelineStatus)}</span>${deleting ? ' <span class="badge deleting">DELETING</span>' : ''}${waiting ? `<br><span class="badge plan-waiting" title="${esc(doc.plan?.reason ?? '')}">AWAITING CONFIRMATION</span>` : ''}<br><small class="waiting-note" hidden></small></td>
<td><ol class="stages">${stages}</ol></td>
<td class="chunks">${chunkCell(doc)}</td>
<td class="failure">${failure}</td>
<td class="actions">${waiting ? '<button type="button" data-plan-review>Review plan</button>' : ''}${doc.pipelineStatus === 'FAILED' && !deleting ? '<button type="button" data-action="retry">Retry</button>' : ''}${deleting ? '' : '<button type="button" data-action="delete" class="danger">Delete</button>'}<a class="workflow-link" href="${esc(doc.workflowUrl)}" target="_blank" rel="noopener noreferrer">workflow ↗</a></td>
</tr>`;
}

export function documentTable(
  docs: DocumentView[],
  options: { showDataset: boolean; empty: string; id: string },
): string {
  // Rendered even when empty (hidden), so the page can add rows that appear while it is open.
  const empty = docs.length === 0;
  return `<p class="muted" id="${esc(options.id)}-empty"${empty ? '' : ' hidden'}>${esc(options.empty)}</p>
<table id="${esc(options.id)}" class="documents"${empty ? ' hidden' : ''}>
<thead><tr><th>document</th><th>status</th><th>stages (${STAGES.length})</th><th>chunks</th><th>failure</th><th></th></tr></thead>
<tbody>
${docs.map((d) => renderDocumentRow(d, options)).join('\n')}
</tbody>
</table>`;
}
