import { loadConfig } from '../../../config/config';
import { esc } from '../../../api/admin/page';
import { decodeCursor } from '../../../api/documentViews';
import { fastifyPath } from '../../../api/router';
import { budgetFor } from '../../../api/receiveUpload';
import { cleanFileName } from '../../../registration/fileName';
import { firstTaskId } from '../../../client/startRun';

describe('HTTP API helpers', () => {
  it('maps OpenAPI paths to Fastify routes, keeping a literal colon', () => {
    expect(fastifyPath('/v1/documents/{id}/events')).toBe('/v1/documents/:id/events');
    expect(fastifyPath('/v1/datasets/{datasetId}/documents:batch')).toBe('/v1/datasets/:datasetId/documents::batch');
  });

  it('derives a stable, UUID-shaped first task id from the document id', () => {
    const id = firstTaskId('0b0e9c52-3d5f-4a57-8f0e-7f2b8f1b2c3d', null);
    expect(id).toBe(firstTaskId('0b0e9c52-3d5f-4a57-8f0e-7f2b8f1b2c3d', null));
    expect(id).not.toBe(firstTaskId('1b0e9c52-3d5f-4a57-8f0e-7f2b8f1b2c3d', null));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('keys the first task id with the server secret, so the document id alone does not give it', () => {
    const doc = '0b0e9c52-3d5f-4a57-8f0e-7f2b8f1b2c3d';
    const keyed = firstTaskId(doc, 'server-secret-one');
    expect(keyed).toBe(firstTaskId(doc, 'server-secret-one'));
    expect(keyed).not.toBe(firstTaskId(doc, null));
    expect(keyed).not.toBe(firstTaskId(doc, 'server-secret-two'));
    expect(keyed).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('escapes everything the admin page interpolates', () => {
    expect(esc(`<img src=x onerror="a('b')">&`)).toBe('&lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt;&amp;');
  });

  it('keeps only the base name of an uploaded file, without control characters', () => {
    expect(cleanFileName('../../etc/passwd')).toBe('passwd');
    expect(cleanFileName('C:\\Users\\me\\report.pdf')).toBe('report.pdf');
    expect(cleanFileName('a\u0000b\nc.md')).toBe('abc.md');
    expect(cleanFileName(undefined)).toBe('upload');
    expect(cleanFileName('上传指南.html')).toBe('上传指南.html');
  });

  it('strips format characters (bidi overrides, zero-width) and line separators from a file name', () => {
    // "invoice‮fdp.exe" displays as "invoiceexe.pdf": the override must not survive into lists and logs.
    expect(cleanFileName('invoice\u202efdp.exe')).toBe('invoicefdp.exe');
    expect(cleanFileName('\u2066a\u2069\u200b\u200fb\ufeff\u00adc\u2028\u2029.md')).toBe('abc.md');
    expect(cleanFileName('\u202e\u200b')).toBe('upload');
  });

  it('cuts a long file name at 255 code points, never inside a surrogate pair', () => {
    const name = `${'a'.repeat(254)}😀😀.md`;
    const cleaned = cleanFileName(name);
    expect(cleaned).toBe(`${'a'.repeat(254)}😀`);
    expect(cleaned).not.toMatch(/\p{Cs}/u);
    expect([...cleanFileName('😀'.repeat(300))]).toHaveLength(255);
  });

  it('limits the next file by the upload limit or the quota left, whichever is smaller', () => {
    const config = loadConfig({
      SLUICE_MAX_FILE_BYTES: '1000',
      SLUICE_USER_QUOTA_BYTES: '5000',
      SLUICE_USER_QUOTA_DOCUMENTS: '3',
    });
    expect(budgetFor(config, { documents: 0, bytes: 0 })).toEqual({ maxBytes: 1000, limitedBy: 'file' });
    expect(budgetFor(config, { documents: 1, bytes: 4500 })).toEqual({ maxBytes: 500, limitedBy: 'quota' });
    expect(() => budgetFor(config, { documents: 3, bytes: 0 })).toThrow(/3 documents/);
    expect(() => budgetFor(config, { documents: 0, bytes: 5000 })).toThrow(/5000 bytes/);
  });

  it('accepts only cursors it could have issued', () => {
    const cursor = Buffer.from(JSON.stringify(['2026-12-01 09:00:00.123456+00', 'abc'])).toString('base64url');
    expect(decodeCursor(cursor)).toEqual({ createdAt: '2026-12-01 09:00:00.123456+00', id: 'abc' });
    expect(decodeCursor('abc')).toBeNull();
    expect(
      decodeCursor(Buffer.from(JSON.stringify(['now(); drop table documents', 'x'])).toString('base64url')),
    ).toBeNull();
  });

  it('reads the API settings from the environment', () => {
    const config = loadConfig({
      SLUICE_API_PORT: '9000',
      SLUICE_API_SSE_POLL: '2s',
      SLUICE_WORKER_METRICS_BIND: '127.0.0.1:9464',
    });
    expect(config.api).toMatchObject({ port: 9000, ssePollMs: 2000, batchMaxFiles: 20, bodyLimitBytes: 65536 });
    expect(config.metrics).toEqual({ workerBindAddress: '127.0.0.1:9464', workerUrl: null, token: null });
    expect(() => loadConfig({ SLUICE_API_PORT: 'eighty' })).toThrow(/SLUICE_API_PORT/);
  });
});
