import { SOURCE_KINDS } from '../../contracts/sources';
import { esc } from './html';

/**
 * The dataset's sources (api/admin/sources.js fills the list from GET
 * /v1/datasets/{d}/sources): each with its last sync's counts and failure codes and its next run,
 * synced now, paused or removed; and a form that adds one (the kind's settings as JSON, docs/sources.md).
 */
export function sourceSection(dataset: string): string {
  const kinds = SOURCE_KINDS.map((k) => `<option value="${esc(k)}">${esc(k)}</option>`).join('');
  return `<section id="sources-section" data-dataset="${esc(dataset)}">
<h2>Sources of <em>${esc(dataset)}</em></h2>
<ul id="source-list" class="upload-results"><li class="muted">loading…</li></ul>
<form id="source-form">
<label>kind <select name="kind">${kinds}</select></label>
<label>settings <input name="settings" required placeholder='{"path": "/srv/manuals"}' aria-label="settings as JSON"></label>
<label>every <input name="every" type="number" min="60" value="3600" aria-label="seconds between syncs"> s</label>
<label>secret <input name="secret" type="password" autocomplete="off" placeholder="S3 secret key, if any"></label>
<button type="submit">Add source</button>
<p id="source-status" role="status"></p>
</form>
</section>`;
}
