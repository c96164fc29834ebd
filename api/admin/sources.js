/* global document, window */
// The admin page's sources (api/admin/sourceSection.ts), on the /v1/datasets/{d}/sources and
// /v1/sources/{id} routes: list with the last sync's report, sync now, pause or resume, remove, add.
'use strict';

(function () {
  const { api, errorText } = window.sluiceAdmin;
  const section = document.getElementById('sources-section');
  if (!section) return;
  const dataset = section.dataset.dataset;
  const list = document.getElementById('source-list');
  const status = document.getElementById('source-status');

  function reportText(last) {
    if (!last) return 'not synced yet';
    const codes = Object.entries(last.failures || {}).map(([code, n]) => `${code} ${n}`);
    return `last sync ${last.finishedAt} (${Math.round(last.durationMs / 1000)} s): ${last.added} added, ${last.updated} updated, ${last.deleted} deleted, ${last.unchanged} unchanged, ${last.failed} failed${codes.length ? ` (${codes.join(', ')})` : ''}`;
  }

  function button(label, onClick) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = label;
    b.addEventListener('click', onClick);
    return b;
  }

  async function load() {
    const { status: code, data } = await api('GET', `/v1/datasets/${encodeURIComponent(dataset)}/sources`);
    list.replaceChildren();
    if (code !== 200) {
      list.textContent = errorText(data);
      return;
    }
    if (data.sources.length === 0) {
      const li = document.createElement('li');
      li.className = 'muted';
      li.textContent = 'No sources: this dataset only holds uploads.';
      list.append(li);
    }
    for (const s of data.sources) {
      const li = document.createElement('li');
      li.className = 'source';
      const text = document.createElement('span');
      const next = s.paused ? 'paused' : `next ${s.nextRunAt || '?'}`;
      text.textContent = `${s.kind} ${JSON.stringify(s.settings)} · ${reportText(s.lastSync)} · ${next}`;
      const act = (method, url, body) => async () => {
        const r = await api(method, url, body);
        status.textContent = r.status < 300 ? '' : errorText(r.data);
        await load();
      };
      li.append(
        text,
        button('Sync now', act('POST', `/v1/sources/${s.id}/sync`)),
        button(s.paused ? 'Resume' : 'Pause', act('PATCH', `/v1/sources/${s.id}`, { paused: !s.paused })),
        button('Remove', act('DELETE', `/v1/sources/${s.id}`)),
      );
      list.append(li);
    }
  }

  document.getElementById('source-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const form = event.target;
    let settings;
    try {
      settings = JSON.parse(form.elements.namedItem('settings').value);
    } catch {
      status.textContent = 'settings: not JSON';
      return;
    }
    const body = {
      kind: form.elements.namedItem('kind').value,
      settings,
      schedule: { everySeconds: Number(form.elements.namedItem('every').value) },
    };
    const secret = form.elements.namedItem('secret').value;
    if (secret) body.secret = secret;
    const { status: code, data } = await api('POST', `/v1/datasets/${encodeURIComponent(dataset)}/sources`, body);
    form.elements.namedItem('secret').value = '';
    status.textContent = code === 201 ? 'Added: its first sync has started.' : errorText(data);
    await load();
  });
  void load();
})();
