/* global document, fetch, window */
// The admin page's review of a waiting chunking plan (api/admin/planDialog.ts): shows the plan and
// the preview of its first chunks, and confirms it as proposed or changed.
'use strict';

(function () {
  const dialog = document.querySelector('#plan-dialog');
  if (!dialog) return;
  const form = dialog.querySelector('#plan-form');
  const $ = (selector) => dialog.querySelector(selector);
  let documentId = null;
  let shown = null;

  async function api(method, url, body) {
    const init = { method, headers: { 'x-sluice-admin': '1' }, credentials: 'same-origin' };
    if (body !== undefined) {
      init.headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    const response = await fetch(url, init);
    return { status: response.status, data: await response.json() };
  }

  const errorText = (data) => (data && data.error ? `${data.error.code}: ${data.error.message}` : 'request failed');
  const sizes = (p) => `child ${p.childTokens} / overlap ${p.overlapTokens} / parent ${p.parentTokens ?? 'section'}`;

  function show(fileName, view) {
    $('#plan-file').textContent = fileName;
    $('#plan-strategy').textContent = view.plan.strategy;
    $('#plan-parameters').textContent = sizes(view.plan.parameters);
    $('#plan-reason').textContent = view.plan.reason;
    $('#plan-chunk-count').textContent = String(view.chunkCount);
    const list = $('#plan-preview');
    list.replaceChildren();
    for (const chunk of view.preview) {
      const item = document.createElement('li');
      const path = document.createElement('small');
      path.className = 'muted';
      path.textContent = `${chunk.sectionPath.join(' › ')} (${chunk.tokenCount} tokens)`;
      const text = document.createElement('pre');
      text.textContent = chunk.text;
      item.append(path, text);
      list.appendChild(item);
    }
    form.elements.namedItem('strategy').value = view.plan.strategy;
    for (const name of ['childTokens', 'overlapTokens', 'parentTokens'])
      form.elements.namedItem(name).value = view.plan.parameters[name] ?? '';
    $('#plan-error').textContent = '';
    shown = view.plan.parameters;
  }

  /**
   * Only the sizes the admin changed from the plan's (an empty parent size is the whole section):
   * sending the unchanged ones too would submit fields the browser reads back from empty inputs.
   */
  function change() {
    const parameters = {};
    for (const name of ['childTokens', 'overlapTokens', 'parentTokens']) {
      const raw = form.elements.namedItem(name).value.trim();
      const value = raw === '' ? null : Number(raw);
      if (value !== shown[name] && !(value === null && name !== 'parentTokens')) parameters[name] = value;
    }
    return { strategy: form.elements.namedItem('strategy').value, parameters };
  }

  async function confirm(body) {
    const { status, data } = await api('POST', `/v1/documents/${documentId}/plan/confirm`, body);
    if (status !== 200) {
      $('#plan-error').textContent = errorText(data);
      return;
    }
    dialog.close();
    window.location.reload();
  }

  document.addEventListener('click', async (event) => {
    const button = event.target.closest('button[data-plan-review]');
    if (!button) return;
    const row = button.closest('tr[data-document-id]');
    documentId = row.dataset.documentId;
    const { status, data } = await api('GET', `/v1/documents/${documentId}/plan`);
    if (status !== 200) {
      window.alert(errorText(data));
      return;
    }
    show(row.querySelector('.file-name').textContent, data);
    dialog.showModal();
  });
  $('#plan-confirm').addEventListener('click', () => confirm({}));
  $('#plan-change').addEventListener('click', () => confirm(change()));
})();
