/* global document, window, fetch, FormData, EventSource, URLSearchParams */
// sluice admin page behaviour: plain DOM, no build step. The server renders every row; this file
// only sends actions, follows running documents over server-sent events and swaps in fresh rows.
'use strict';

(function () {
  const ADMIN_HEADERS = { 'x-sluice-admin': '1' };
  const TERMINAL = new Set(['SUCCESS', 'FAILED']);
  const streams = new Map();

  const $ = (selector, root) => (root || document).querySelector(selector);
  const rowsOf = (id) => document.querySelectorAll(`tr[data-document-id="${id}"]`);

  async function api(method, url, body) {
    const init = { method, headers: { ...ADMIN_HEADERS }, credentials: 'same-origin' };
    if (body instanceof FormData) init.body = body;
    else if (body !== undefined) {
      init.headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    const response = await fetch(url, init);
    const type = response.headers.get('content-type') || '';
    const data = type.includes('application/json') ? await response.json() : await response.text();
    return { status: response.status, data };
  }

  const errorText = (data) => (data && data.error ? `${data.error.code}: ${data.error.message}` : 'request failed');

  function note(list, text, kind) {
    const item = document.createElement('li');
    item.textContent = text;
    if (kind) item.className = kind;
    list.appendChild(item);
  }

  // ---- sign in / out -------------------------------------------------------------------------
  const login = $('#login-form');
  if (login) {
    login.addEventListener('submit', async (event) => {
      event.preventDefault();
      const { status, data } = await api('POST', '/admin/session', {
        apiKey: login.elements.namedItem('apiKey').value.trim(),
      });
      if (status === 204) window.location.reload();
      else $('#login-error').textContent = errorText(data);
    });
  }
  const logout = $('#logout');
  if (logout) {
    logout.addEventListener('click', async () => {
      await api('DELETE', '/admin/session');
      window.location.assign('/admin');
    });
  }

  // ---- rows: refresh, live updates -----------------------------------------------------------
  async function refreshRow(id) {
    for (const row of rowsOf(id)) {
      const inFailedTable = Boolean(row.closest('#failed'));
      const { status, data } = await api('GET', `/admin/rows/${id}${inFailedTable ? '?showDataset=1' : ''}`);
      if (status === 404) {
        row.remove();
        continue;
      }
      if (status !== 200) continue;
      const template = document.createElement('template');
      // The server escapes every value it renders into the row.
      template.innerHTML = data.trim();
      const fresh = template.content.firstElementChild;
      if (!fresh) continue;
      // The failed table lists failed documents only.
      if (inFailedTable && fresh.dataset.status !== 'FAILED') row.remove();
      else row.replaceWith(fresh);
    }
    await listAsFailed(id);
  }

  /** A document that failed while the page was open joins the failed table. */
  async function listAsFailed(id) {
    const table = $('#failed');
    const inDocuments = $(`#documents tr[data-document-id="${id}"]`);
    if (
      !table ||
      !inDocuments ||
      inDocuments.dataset.status !== 'FAILED' ||
      table.querySelector(`tr[data-document-id="${id}"]`)
    )
      return;
    const { status, data } = await api('GET', `/admin/rows/${id}?showDataset=1`);
    if (status !== 200) return;
    const template = document.createElement('template');
    template.innerHTML = data.trim();
    const fresh = template.content.firstElementChild;
    if (!fresh || table.querySelector(`tr[data-document-id="${id}"]`)) return;
    table.tBodies[0].prepend(fresh);
    table.hidden = false;
    const empty = $('#failed-empty');
    if (empty) empty.hidden = true;
  }

  function applyProgress(id, progress) {
    // A plan that starts or stops waiting changes the row's actions (Review plan): render it anew.
    const waiting = progress.planState === 'WAIT_CONFIRM' && progress.lifecycle !== 'DELETING';
    if ([...rowsOf(id)].some((row) => waiting !== Boolean(row.querySelector('button[data-plan-review]')))) {
      void refreshRow(id);
      return;
    }
    for (const row of rowsOf(id)) {
      row.dataset.status = progress.status;
      const badge = row.querySelector('.status .badge');
      if (badge) {
        badge.textContent = progress.status;
        badge.className = `badge status-${progress.status}`;
      }
      for (const [stage, status] of Object.entries(progress.stages)) {
        const cell = row.querySelector(`li[data-stage="${stage}"]`);
        if (cell) cell.className = `stage st-${status}`;
      }
      const note = row.querySelector('.waiting-note');
      if (note) {
        const w = progress.waiting;
        note.textContent = w ? `waiting for ${w.for} since ${w.since.slice(11, 19)} UTC, attempt ${w.attempt}` : '';
        note.hidden = !w;
      }
    }
  }

  function follow(id, options) {
    const previous = streams.get(id);
    if (previous) previous.close();
    const query = new URLSearchParams();
    if (options && options.taskId) query.set('taskId', options.taskId);
    if (options && options.untilDeleted) query.set('until', 'deleted');
    const source = new EventSource(`/v1/documents/${id}/events?${query.toString()}`);
    streams.set(id, source);
    const stop = () => {
      source.close();
      streams.delete(id);
    };
    source.addEventListener('progress', (event) => applyProgress(id, JSON.parse(event.data)));
    source.addEventListener('end', () => {
      stop();
      void refreshRow(id);
    });
    source.addEventListener('deleted', () => {
      stop();
      for (const row of rowsOf(id)) row.remove();
    });
    // A failed connection (404 after deletion, server restart): settle the row from the server.
    source.addEventListener('error', () => {
      if (source.readyState === EventSource.CLOSED) {
        streams.delete(id);
        void refreshRow(id);
      }
    });
  }

  for (const row of document.querySelectorAll('tr[data-document-id]')) {
    const live = !TERMINAL.has(row.dataset.status) || row.dataset.lifecycle === 'DELETING';
    if (live && !streams.has(row.dataset.documentId)) {
      follow(row.dataset.documentId, { untilDeleted: row.dataset.lifecycle === 'DELETING' });
    }
  }

  // ---- actions -------------------------------------------------------------------------------
  document.addEventListener('click', async (event) => {
    const button = event.target.closest('button[data-action]');
    if (!button) return;
    const row = button.closest('tr[data-document-id]');
    const id = row.dataset.documentId;
    button.disabled = true;
    try {
      if (button.dataset.action === 'retry') {
        const { status, data } = await api('POST', `/v1/documents/${id}/retry`);
        if (status === 202) {
          for (const r of rowsOf(id)) {
            r.dataset.status = 'PROCESSING';
            const failure = r.querySelector('.failure');
            if (failure) failure.textContent = '';
          }
          applyProgress(id, { status: 'PROCESSING', stages: {} });
          follow(id, { taskId: data.taskId });
        } else {
          window.alert(errorText(data));
          button.disabled = false;
        }
      } else if (button.dataset.action === 'delete') {
        const name = row.querySelector('.file-name').textContent;
        if (!window.confirm(`Delete ${name}? Its chunks, vectors and index entries are removed.`)) {
          button.disabled = false;
          return;
        }
        const { status, data } = await api('DELETE', `/v1/documents/${id}`);
        if (status === 202) {
          for (const r of rowsOf(id)) {
            r.dataset.lifecycle = 'DELETING';
            r.classList.add('deleting');
          }
          follow(id, { untilDeleted: true });
        } else {
          window.alert(errorText(data));
          button.disabled = false;
        }
      }
    } catch (error) {
      window.alert(String(error));
      button.disabled = false;
    }
  });

  // ---- upload --------------------------------------------------------------------------------
  const upload = $('#upload-form');
  if (upload) {
    upload.addEventListener('submit', async (event) => {
      event.preventDefault();
      // Not `upload.dataset`: on a form element that is the data-* attribute map.
      const dataset = upload.elements.namedItem('dataset').value.trim();
      const files = Array.from(upload.elements.namedItem('files').files);
      const results = $('#upload-results');
      results.textContent = '';
      if (files.length === 0) return;
      const button = upload.querySelector('button[type="submit"]');
      button.disabled = true;
      const form = new FormData();
      const single = files.length === 1;
      for (const file of files) form.append(single ? 'file' : 'files', file, file.name);
      const url = `/v1/datasets/${encodeURIComponent(dataset)}/documents${single ? '' : ':batch'}`;
      try {
        const { status, data } = await api('POST', url, form);
        const outcomes = single
          ? [
              {
                fileName: files[0].name,
                httpStatus: status,
                document: status < 300 ? data : null,
                error: status < 300 ? null : data.error,
              },
            ]
          : data.results || [{ fileName: '(batch)', httpStatus: status, document: null, error: data.error }];
        for (const o of outcomes) {
          if (o.document)
            note(
              results,
              `${o.fileName}: ${o.document.duplicate ? 'already in the dataset' : 'accepted'} (${o.document.documentId})`,
              'ok',
            );
          else
            note(
              results,
              `${o.fileName}: refused — ${o.error ? `${o.error.code}: ${o.error.message}` : o.httpStatus}`,
              'error',
            );
        }
        if (outcomes.some((o) => o.document)) {
          const target = new URLSearchParams({ dataset });
          window.setTimeout(
            () => window.location.assign(`/admin?${target.toString()}`),
            outcomes.every((o) => o.document) ? 300 : 2500,
          );
        }
      } catch (error) {
        note(results, String(error), 'error');
      } finally {
        button.disabled = false;
      }
    });
  }

  // ---- search --------------------------------------------------------------------------------
  const search = $('#search-form');
  if (search) {
    search.addEventListener('submit', async (event) => {
      event.preventDefault();
      const list = $('#search-results');
      list.textContent = '';
      const query = new URLSearchParams({ q: search.elements.namedItem('q').value, limit: '10' });
      const { status, data } = await api(
        'GET',
        `/v1/datasets/${encodeURIComponent(search.dataset.dataset)}/search?${query.toString()}`,
      );
      if (status !== 200) {
        note(list, errorText(data), 'error');
        return;
      }
      if (data.hits.length === 0) note(list, 'no hits', 'muted');
      for (const hit of data.hits) {
        const item = document.createElement('li');
        item.className = 'hit';
        const head = document.createElement('div');
        head.className = 'hit-head';
        head.textContent = `${hit.fileName}${hit.sectionPath.length ? ` › ${hit.sectionPath.join(' › ')}` : ''} · score ${hit.score.toFixed(4)}`;
        const text = document.createElement('p');
        text.className = 'hit-text';
        text.textContent = hit.text.length > 400 ? `${hit.text.slice(0, 400)}…` : hit.text;
        item.append(head, text);
        list.appendChild(item);
      }
    });
  }

  // ---- embedding provider --------------------------------------------------------------------
  const embeddingForm = $('#embedding-form');
  if (embeddingForm) {
    const field = (name) => embeddingForm.elements.namedItem(name);
    const status = $('#embedding-status');
    const SOURCES = { user: 'your own', deployment: 'the deployment default', environment: 'the deployment default' };

    const loadEmbedding = async () => {
      const { status: code, data } = await api('GET', '/v1/embedding-config');
      const current = $('#embedding-current');
      if (code !== 200) {
        current.textContent = errorText(data);
        return;
      }
      const c = data.config;
      current.textContent = c
        ? `${SOURCES[c.source]}: ${c.model} (${c.dimension} dimensions) at ${c.baseUrl || 'the provider default'}, API key ${c.apiKey || 'none'}`
        : 'No embedding configuration: documents cannot be embedded until you save one.';
      if (!data.applies) current.textContent += ' (this deployment embeds with a built-in model)';
      if (c && c.source === 'user') {
        field('baseUrl').value = c.baseUrl || '';
        field('model').value = c.model;
        field('dimension').value = String(c.dimension);
      }
    };

    // The existing take-over: one button per dataset whose vectors the previous model made.
    const offerReembed = (datasets) => {
      const list = $('#embedding-reembed');
      list.textContent = '';
      for (const dataset of datasets) {
        const item = document.createElement('li');
        const button = document.createElement('button');
        button.type = 'button';
        button.textContent = `Re-embed ${dataset}`;
        button.addEventListener('click', async () => {
          button.disabled = true;
          const { status: code, data } = await api('POST', `/v1/datasets/${encodeURIComponent(dataset)}/reembed`);
          item.textContent =
            code === 202
              ? `${dataset}: ${data.started.length} documents re-embedding with ${data.model}, ${data.skipped.length} skipped`
              : errorText(data);
        });
        item.appendChild(button);
        list.appendChild(item);
      }
    };

    embeddingForm.addEventListener('submit', async (event) => {
      event.preventDefault();
      const body = { model: field('model').value.trim(), dimension: Number(field('dimension').value) };
      if (field('baseUrl').value.trim()) body.baseUrl = field('baseUrl').value.trim();
      if (field('apiKey').value) body.apiKey = field('apiKey').value;
      const { status: code, data } = await api('PUT', '/v1/embedding-config', body);
      field('apiKey').value = '';
      status.textContent =
        code === 200
          ? data.reembedSuggested
            ? 'Saved. The model changed: re-embed your datasets.'
            : 'Saved.'
          : errorText(data);
      if (code === 200 && data.reembedSuggested) offerReembed(data.datasets);
      await loadEmbedding();
    });
    $('#embedding-test').addEventListener('click', async () => {
      status.textContent = 'testing…';
      const { status: code, data } = await api('POST', '/v1/embedding-config/test');
      status.textContent = code === 200 ? `${data.ok ? 'OK' : 'FAILED'}: ${data.message}` : errorText(data);
    });
    $('#embedding-delete').addEventListener('click', async () => {
      const { status: code, data } = await api('DELETE', '/v1/embedding-config');
      status.textContent =
        code === 200 ? (data.deleted ? 'Deleted.' : 'You had no configuration of your own.') : errorText(data);
      await loadEmbedding();
    });
    void loadEmbedding();
  }
})();
