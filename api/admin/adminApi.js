/* global fetch, window */
// What the admin page's scripts share: a JSON call to the API with the admin page's marker header
// (the CSRF guard of api/routes/admin.ts), and an API error's code and message as one line.
'use strict';

window.sluiceAdmin = {
  async api(method, url, body) {
    const init = { method, credentials: 'same-origin', headers: { 'x-sluice-admin': '1' } };
    if (body !== undefined) {
      init.headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    const response = await fetch(url, init);
    const type = response.headers.get('content-type') || '';
    return { status: response.status, data: type.includes('application/json') ? await response.json() : null };
  },
  errorText: (data) => (data && data.error ? `${data.error.code}: ${data.error.message}` : 'request failed'),
};
