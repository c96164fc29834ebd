/* global document, window */
// The admin page's CHAT, VISION and RERANK model forms (api/admin/modelSection.ts), on the
// /v1/model-configs/{purpose} routes; the key is sent once and only ever shown masked.
'use strict';

(function () {
  const { api, errorText } = window.sluiceAdmin;

  for (const form of document.querySelectorAll('form.model-form')) {
    const url = `/v1/model-configs/${encodeURIComponent(form.dataset.purpose)}`;
    const field = (name) => form.elements.namedItem(name);
    const status = form.querySelector('.model-status');

    const load = async () => {
      const { status: code, data } = await api('GET', url);
      const current = form.querySelector('.model-current');
      if (code !== 200) {
        current.textContent = errorText(data);
        return;
      }
      const c = data.config;
      const shape = c && c.apiShape ? `, ${c.apiShape} shape` : '';
      current.textContent = c ? `${c.model} at ${c.baseUrl}, API key ${c.apiKey || 'none'}${shape}` : 'Not configured.';
      if (c) {
        field('baseUrl').value = c.baseUrl;
        field('model').value = c.model;
        if (c.apiShape && field('apiShape')) field('apiShape').value = c.apiShape;
      }
    };

    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const body = { baseUrl: field('baseUrl').value.trim(), model: field('model').value.trim() };
      if (field('apiKey').value) body.apiKey = field('apiKey').value;
      if (field('apiShape')) body.apiShape = field('apiShape').value;
      const { status: code, data } = await api('PUT', url, body);
      field('apiKey').value = '';
      status.textContent = code === 200 ? 'Saved.' : errorText(data);
      await load();
    });
    form.querySelector('.model-test').addEventListener('click', async () => {
      status.textContent = 'testing…';
      const { status: code, data } = await api('POST', `${url}/test`);
      status.textContent = code === 200 ? `${data.ok ? 'OK' : 'FAILED'}: ${data.message}` : errorText(data);
    });
    form.querySelector('.model-delete').addEventListener('click', async () => {
      const { status: code, data } = await api('DELETE', url);
      status.textContent = code === 200 ? (data.deleted ? 'Deleted.' : 'There was none.') : errorText(data);
      await load();
    });
    void load();
  }
})();
