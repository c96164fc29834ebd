import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { revokeApiKey } from '../../db/repositories/apiKeys';
import { installQuietRuntime } from '../../testkit/harness/quietRuntime';
import {
  call,
  fileForm,
  freePort,
  newUser,
  objectFilesOf,
  startApi,
  waitForDocument,
  type ApiHarness,
  type DocumentBody,
  type TestUser,
} from '../../testkit/harness/apiHarness';
import { eventually, sectionedMarkdown } from '../../testkit/harness/ingestHelpers';

// Every route of the HTTP API against the real stack: dev server, worker, Postgres, local stores.
const MAX_FILE_BYTES = 8 * 1024 * 1024;
const METRICS_TOKEN = `metrics-${randomUUID()}`;
const metricsAuth = { headers: { authorization: `Bearer ${METRICS_TOKEN}` } };
let h: ApiHarness;
let alice: TestUser;
let workerMetricsPort: number;

// GIF: an image type sluice does not read (PNG, JPEG, TIFF and WebP go to OCR).
const GIF = Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.alloc(512, 7)]);
const ELF = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(2048, 0)]);

const markdown = (phrase: string) =>
  `# Field guide\n\n## Sightings\n\nThe ${phrase} was seen near the old mill at dawn.\n\n## Notes\n\nNothing else of interest ${randomUUID()}.\n`;

type UploadBody = { documentId: string; taskId: string; status: string; duplicate: boolean; sizeBytes: number };
type ErrorBody = { error: { code: string; message: string; requestId: string } };

async function upload(
  dataset: string,
  name: string,
  content: Buffer | string,
  user: TestUser = alice,
  baseUrl = h.baseUrl,
) {
  const response = await call<UploadBody & ErrorBody>(baseUrl, 'POST', `/v1/datasets/${dataset}/documents`, {
    user,
    body: fileForm([{ name, content }]),
  });
  if (response.status === 202) h.tw.track(response.body.documentId);
  return response;
}

beforeAll(async () => {
  // The worker's Temporal Runtime serves Prometheus metrics; the API relays them on /metrics.
  workerMetricsPort = await freePort();
  installQuietRuntime({ prometheusBindAddress: `127.0.0.1:${workerMetricsPort}` });
  h = await startApi({
    SLUICE_MAX_FILE_BYTES: String(MAX_FILE_BYTES),
    SLUICE_API_BATCH_MAX_FILES: '3',
    SLUICE_API_SSE_POLL: '100ms',
    SLUICE_WORKER_METRICS_URL: `http://127.0.0.1:${workerMetricsPort}/metrics`,
    SLUICE_METRICS_TOKEN: METRICS_TOKEN,
  });
  alice = await newUser(h, 'alice');
});
afterAll(() => h?.close());

describe('system routes', () => {
  it('GET /healthz reports Postgres, Temporal, the keyword index and the object store', async () => {
    const r = await call(h.baseUrl, 'GET', '/healthz');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      status: 'ok',
      checks: { database: 'ok', temporal: 'ok', keywordIndex: 'ok', objectStore: 'ok' },
      down: [],
    });
  });

  it('GET /openapi.json documents every API route with its schemas and bearer auth', async () => {
    const r = await call<{
      openapi: string;
      paths: Record<string, Record<string, { security: unknown[]; parameters?: { name: string }[] }>>;
      components: unknown;
    }>(h.baseUrl, 'GET', '/openapi.json');
    expect(r.status).toBe(200);
    expect(r.body.openapi).toBe('3.1.0');
    const routes = Object.entries(r.body.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(routes.sort()).toEqual(
      [
        'DELETE /v1/documents/{id}',
        'DELETE /v1/embedding-config',
        'GET /healthz',
        'GET /metrics',
        'GET /openapi.json',
        'GET /v1/datasets',
        'GET /v1/datasets/{datasetId}/documents',
        'GET /v1/datasets/{datasetId}/search',
        'GET /v1/datasets/{datasetId}/settings',
        'PUT /v1/datasets/{datasetId}/settings',
        'GET /v1/documents/{id}',
        'GET /v1/documents/{id}/events',
        'GET /v1/documents/{id}/plan',
        'POST /v1/documents/{id}/plan/confirm',
        'GET /v1/embedding-config',
        'PUT /v1/embedding-config',
        'POST /v1/embedding-config/test',
        'GET /v1/model-configs/{purpose}',
        'PATCH /v1/documents/{id}/metadata',
        'PUT /v1/model-configs/{purpose}',
        'DELETE /v1/model-configs/{purpose}',
        'POST /v1/model-configs/{purpose}/test',
        'POST /v1/search',
        'POST /v1/datasets/{datasetId}/hit-test',
        'POST /v1/datasets/{datasetId}/rebuild',
        'POST /v1/datasets/{datasetId}/reembed',
        'POST /v1/documents/{id}/rebuild',
        'POST /v1/datasets/{datasetId}/documents',
        'POST /v1/datasets/{datasetId}/documents:batch',
        'POST /v1/documents/{id}/retry',
        'PUT /v1/documents/{id}/content',
        'POST /v1/datasets/{datasetId}/sources',
        'GET /v1/datasets/{datasetId}/sources',
        'PATCH /v1/sources/{id}',
        'POST /v1/sources/{id}/sync',
        'DELETE /v1/sources/{id}',
      ].sort(),
    );
    const list = r.body.paths['/v1/datasets/{datasetId}/documents']?.get;
    expect(list?.security).toEqual([{ bearerAuth: [] }]);
    expect(list?.parameters?.map((p) => p.name)).toEqual(['datasetId', 'status', 'limit', 'cursor']);
    expect(JSON.stringify(r.body.paths['/v1/datasets/{datasetId}/documents']?.post)).toContain('multipart/form-data');
  });

  it('GET /metrics needs the metrics token, and has the API metrics and the worker Runtime metrics', async () => {
    expect((await call(h.baseUrl, 'GET', '/metrics')).status).toBe(401);
    expect((await call(h.baseUrl, 'GET', '/metrics', { user: alice })).status).toBe(401);
    await upload('metrics', 'm.md', markdown('metrics heron'));
    const r = await eventually(
      () => call<string>(h.baseUrl, 'GET', '/metrics', metricsAuth),
      (res) => /^temporal_/m.test(res.body),
      30_000,
      500,
    );
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('text/plain');
    expect(r.body).toContain('sluice_http_request_duration_seconds_bucket');
    expect(r.body).toMatch(/sluice_uploads_total\{outcome="accepted"\} [1-9]/);
    expect(r.body).toContain('sluice_worker_metrics_up 1');
    expect(r.body).toMatch(/^temporal_\w+/m);
  });
});

describe('authentication and limits', () => {
  it('refuses a missing, malformed, unknown or revoked key with 401 and no details', async () => {
    const other = await newUser(h, 'revoked');
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer nonsense' },
      { authorization: `Bearer sk_0123456789abcdef_${'x'.repeat(43)}` },
      { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
    ];
    const [, keyId] = /^sk_([0-9a-f]{16})_/.exec(other.apiKey) ?? [];
    await revokeApiKey(h.tw.adapters.db, keyId ?? '');
    attempts.push(other.auth);
    for (const headers of attempts) {
      const r = await call<ErrorBody>(h.baseUrl, 'GET', '/v1/datasets', { headers });
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toBe('Bearer');
      expect(r.body.error.code).toBe('UNAUTHENTICATED');
    }
  });

  it('answers 431 to oversized headers and 413 to an oversized JSON body', async () => {
    const big = await call(h.baseUrl, 'GET', '/v1/datasets', {
      user: alice,
      headers: { 'x-filler': 'a'.repeat(20 * 1024) },
    });
    expect(big.status).toBe(431);
    const body = await call<ErrorBody>(h.baseUrl, 'POST', '/admin/session', {
      body: { apiKey: 'k', filler: 'x'.repeat(100 * 1024) },
    });
    expect(body.status).toBe(413);
    expect(body.body.error.code).toBe('FST_ERR_CTP_BODY_TOO_LARGE');
  });

  it('answers validation errors and unknown routes as JSON errors', async () => {
    const badId = await call<ErrorBody>(h.baseUrl, 'GET', '/v1/documents/not-a-uuid', { user: alice });
    expect(badId.status).toBe(400);
    expect(badId.body.error.code).toBe('VALIDATION_FAILED');
    const missing = await call<ErrorBody>(h.baseUrl, 'GET', `/v1/documents/${randomUUID()}`, { user: alice });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({
      error: { code: 'NOT_FOUND', message: 'document not found', requestId: expect.any(String) },
    });
    const route = await call<ErrorBody>(h.baseUrl, 'GET', '/v2/nothing');
    expect(route.status).toBe(404);
  });

  it('never puts internals in a 500: the failure is logged, the caller gets a bare message', async () => {
    const broken = await h.variant((c) => c, {
      ...h.tw.adapters,
      objects: {
        ...h.tw.adapters.objects,
        putStream: () => Promise.reject(new Error('disk /secret/path/objects exploded at line 42')),
      },
    });
    try {
      const r = await call<ErrorBody>(broken.baseUrl, 'POST', '/v1/datasets/broken/documents', {
        user: alice,
        body: fileForm([{ name: 'a.md', content: '# hi\n\ntext' }]),
      });
      expect(r.status).toBe(500);
      expect(r.body).toEqual({ error: { code: 'INTERNAL', message: 'internal error', requestId: expect.any(String) } });
      expect(JSON.stringify(r.body)).not.toMatch(/secret|exploded|at line|\.ts/);
    } finally {
      await broken.close();
    }
  });
});

describe('replace content', () => {
  it('PUT /v1/documents/{id}/content keeps the id, serves the new text, answers unchanged content with 200 and refuses others’ documents', async () => {
    const r = await upload('replaced', 'field.md', markdown('amber kingfisher'));
    expect((await waitForDocument(h, alice, r.body.documentId)).pipelineStatus).toBe('SUCCESS');
    const path = `/v1/documents/${r.body.documentId}/content`;
    const next = markdown('violet heron');
    // The first run closes just after its SUCCESS is visible: a replace meanwhile is DOCUMENT_BUSY.
    const put = await eventually(
      () =>
        call<{ taskId: string; unchanged: boolean } & ErrorBody>(h.baseUrl, 'PUT', path, {
          user: alice,
          body: fileForm([{ name: 'field-v2.md', content: next }]),
        }),
      (res) => res.status !== 409,
    );
    expect(put.status).toBe(202);
    expect(put.body.unchanged).toBe(false);
    const doc = await waitForDocument(h, alice, r.body.documentId, put.body.taskId);
    expect(doc.pipelineStatus).toBe('SUCCESS');
    expect(doc.fileName).toBe('field-v2.md');
    const search = await eventually(
      () =>
        call<{ hits: { documentId: string; text: string }[] }>(
          h.baseUrl,
          'GET',
          '/v1/datasets/replaced/search?q=violet%20heron&limit=3',
          { user: alice },
        ),
      (res) => res.status === 200 && res.body.hits.length > 0,
    );
    expect(search.body.hits[0]?.text).toContain('violet heron');
    expect(search.body.hits.some((hit) => hit.text.includes('amber kingfisher'))).toBe(false);
    const again = await eventually(
      () =>
        call<{ unchanged: boolean; taskId: string }>(h.baseUrl, 'PUT', path, {
          user: alice,
          body: fileForm([{ name: 'field-v2.md', content: next }]),
        }),
      (res) => res.status !== 409,
    );
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ unchanged: true, taskId: put.body.taskId });
    const bob = await newUser(h, 'bob');
    const foreign = await call<ErrorBody>(h.baseUrl, 'PUT', path, {
      user: bob,
      body: fileForm([{ name: 'x.md', content: next }]),
    });
    expect(foreign.status).toBe(404);
  });
});

describe('upload', () => {
  it('answers 202 at once, and the document reaches SUCCESS with every stage, duration and chunk', async () => {
    const r = await upload('guides', 'guide.md', markdown('amber kingfisher'));
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({
      documentId: expect.any(String),
      taskId: expect.any(String),
      status: 'PENDING',
      duplicate: false,
    });

    const doc = await waitForDocument(h, alice, r.body.documentId);
    expect(doc.pipelineStatus).toBe('SUCCESS');
    expect(doc.taskId).toBe(r.body.taskId);
    expect(doc.lifecycle).toBe('ACTIVE');
    expect(doc.failure).toBeNull();
    for (const stage of doc.stages) {
      expect(stage.status).toBe('SUCCESS');
      expect(stage.ms).toEqual(expect.any(Number));
    }
    expect(doc.chunks.active).toBeGreaterThan(0);
    expect(doc.chunks).toMatchObject({
      dense: doc.chunks.active,
      sparse: doc.chunks.active,
      keyword: doc.chunks.active,
    });
    expect(doc.workflowUrl).toBe(
      `${h.tw.config.temporal.uiUrl}/namespaces/default/workflows/ingest:${r.body.documentId}`,
    );
  });

  it('turns the same content twice (even at the same moment) into one document', async () => {
    const content = markdown('twice-seen plover');
    const [a, b] = await Promise.all([upload('dedupe', 'one.md', content), upload('dedupe', 'two.md', content)]);
    expect([a.status, b.status].sort()).toEqual([200, 202]);
    expect(a.body.documentId).toBe(b.body.documentId);
    const again = await upload('dedupe', 'three.md', content);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ documentId: a.body.documentId, duplicate: true });
    const list = await call<{ documents: DocumentBody[] }>(h.baseUrl, 'GET', '/v1/datasets/dedupe/documents', {
      user: alice,
    });
    expect(list.body.documents.map((d) => d.documentId)).toEqual([a.body.documentId]);
    // The same content in another dataset is another document.
    const elsewhere = await upload('dedupe-2', 'one.md', content);
    expect(elsewhere.status).toBe(202);
    expect(elsewhere.body.documentId).not.toBe(a.body.documentId);
    expect(await objectFilesOf(h.tw.config, alice.userId)).not.toContainEqual(expect.stringContaining('.partial'));
  });

  it.each([
    ['a GIF named .pdf', GIF, 'report.pdf'],
    ['an executable named .pdf', ELF, 'invoice.pdf'],
  ])('refuses %s with 415 from its first bytes, keeping nothing', async (_label, bytes, name) => {
    const before = await objectFilesOf(h.tw.config, alice.userId);
    const r = await upload('refusals', name, bytes);
    expect(r.status).toBe(415);
    expect(r.body.error.code).toBe('UNSUPPORTED_FILE_TYPE');
    expect(r.body.error.message).not.toMatch(/at \w+ \(/);
    const list = await call<{ documents: unknown[] }>(h.baseUrl, 'GET', '/v1/datasets/refusals/documents', {
      user: alice,
    });
    expect(list.body.documents).toEqual([]);
    expect(await objectFilesOf(h.tw.config, alice.userId)).toEqual(before);
  });

  it('refuses an empty file with 422', async () => {
    const r = await upload('refusals', 'empty.md', Buffer.alloc(0));
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('EMPTY_DOCUMENT');
  });

  it('refuses a request that is not multipart, or has no file', async () => {
    const json = await call<ErrorBody>(h.baseUrl, 'POST', '/v1/datasets/refusals/documents', {
      user: alice,
      body: { file: 'x' },
    });
    expect(json.status).toBe(415);
    const form = new FormData();
    form.append('note', 'no file here');
    const noFile = await call<ErrorBody>(h.baseUrl, 'POST', '/v1/datasets/refusals/documents', {
      user: alice,
      body: form,
    });
    expect(noFile.status).toBe(400);
    expect(noFile.body.error.code).toBe('NO_FILE');
  });

  it('refuses a 1 GB upload at the size limit without reading the rest, and keeps nothing', async () => {
    const GB = 1024 * 1024 * 1024;
    const before = await objectFilesOf(h.tw.config, alice.userId);
    const result = await streamUpload(h.baseUrl, '/v1/datasets/huge/documents', alice, GB, 'huge.txt');
    expect(result.status).toBe(413);
    expect(JSON.parse(result.body)).toMatchObject({ error: { code: 'FILE_TOO_LARGE' } });
    expect(result.connection).toBe('close');
    // The generator was pulled only a little past the limit (socket buffers), nowhere near 1 GB.
    expect(result.bytesProduced).toBeLessThan(MAX_FILE_BYTES + 64 * 1024 * 1024);
    expect(result.bytesProduced).toBeLessThan(GB / 8);
    const list = await call<{ documents: unknown[] }>(h.baseUrl, 'GET', '/v1/datasets/huge/documents', { user: alice });
    expect(list.body.documents).toEqual([]);
    expect(await objectFilesOf(h.tw.config, alice.userId)).toEqual(before);
    expect((await call(h.baseUrl, 'GET', '/healthz')).status).toBe(200);
  });

  it('cleans up after a client that goes away mid-upload', async () => {
    const before = await objectFilesOf(h.tw.config, alice.userId);
    const boundary = `----sluice-${randomUUID()}`;
    const req = http.request(`${h.baseUrl}/v1/datasets/abandoned/documents`, {
      method: 'POST',
      headers: {
        ...alice.auth,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(4 * 1024 * 1024),
      },
    });
    req.on('error', () => undefined);
    req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="gone.txt"\r\n\r\n`);
    req.write(Buffer.alloc(1024 * 1024, 'g'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    req.destroy();
    await eventually(
      () => call<string>(h.baseUrl, 'GET', '/metrics', metricsAuth),
      (r) => /sluice_uploads_total\{outcome="interrupted"\} 1/.test(r.body),
      10_000,
      100,
    );
    expect(await objectFilesOf(h.tw.config, alice.userId)).toEqual(before);
    const list = await call<{ documents: unknown[] }>(h.baseUrl, 'GET', '/v1/datasets/abandoned/documents', {
      user: alice,
    });
    expect(list.body.documents).toEqual([]);
  });

  it('enforces the per-user quota on documents and on bytes', async () => {
    const tight = await h.variant((c) => ({ ...c, quota: { maxDocuments: 2, maxBytes: 3000 } }));
    try {
      const user = await newUser(h, 'quota');
      const first = await upload('q', 'a.md', `# a\n\n${'a'.repeat(1200)}\n`, user, tight.baseUrl);
      expect(first.status).toBe(202);
      // 1.2 KB stored, 1.8 KB left: a 2 KB file crosses the quota mid-stream.
      const over = await upload('q', 'b.md', `# b\n\n${'b'.repeat(2000)}\n`, user, tight.baseUrl);
      expect(over.status).toBe(403);
      expect(over.body.error.code).toBe('QUOTA_EXCEEDED');
      expect(await objectFilesOf(h.tw.config, user.userId)).toHaveLength(1);
      expect((await upload('q', 'c.md', '# c\n\nsmall\n', user, tight.baseUrl)).status).toBe(202);
      const third = await upload('q', 'd.md', '# d\n\nsmall too\n', user, tight.baseUrl);
      expect(third.status).toBe(403);
      expect(third.body.error.message).toContain('2 documents');
    } finally {
      await tight.close();
    }
  });
});

describe('batch upload', () => {
  type Batch = {
    results: {
      index: number;
      fileName: string;
      httpStatus: number;
      document: UploadBody | null;
      error: { code: string } | null;
    }[];
    complete: boolean;
  };
  const batch = async (dataset: string, files: { name: string; content: Buffer | string }[]) => {
    const r = await call<Batch>(h.baseUrl, 'POST', `/v1/datasets/${dataset}/documents:batch`, {
      user: alice,
      body: fileForm(files, 'files'),
    });
    for (const result of r.body.results ?? []) if (result.document) h.tw.track(result.document.documentId);
    return r;
  };

  it('creates the good files when one is bad: one result per file', async () => {
    const r = await batch('batch', [
      { name: 'first.md', content: markdown('batch osprey') },
      { name: 'fake.pdf', content: GIF },
      { name: 'third.txt', content: `plain notes about the batch curlew ${randomUUID()}` },
    ]);
    expect(r.status).toBe(207);
    expect(r.body.complete).toBe(true);
    expect(r.body.results.map((x) => [x.index, x.fileName, x.httpStatus, x.error?.code ?? null])).toEqual([
      [0, 'first.md', 202, null],
      [1, 'fake.pdf', 415, 'UNSUPPORTED_FILE_TYPE'],
      [2, 'third.txt', 202, null],
    ]);
    const ids = r.body.results.flatMap((x) => (x.document ? [x.document.documentId] : []));
    for (const id of ids) expect((await waitForDocument(h, alice, id)).pipelineStatus).toBe('SUCCESS');
    const list = await call<{ documents: DocumentBody[] }>(h.baseUrl, 'GET', '/v1/datasets/batch/documents', {
      user: alice,
    });
    expect(list.body.documents.map((d) => d.documentId).sort()).toEqual(ids.sort());
  });

  it('stops reading at one file too many', async () => {
    const files = [0, 1, 2, 3].map((i) => ({ name: `n${i}.md`, content: `# note ${i}\n\n${randomUUID()}\n` }));
    const r = await batch('batch-max', files);
    expect(r.status).toBe(207);
    expect(r.body.complete).toBe(false);
    expect(r.body.results.map((x) => x.httpStatus)).toEqual([202, 202, 202, 413]);
    expect(r.body.results[3]?.error?.code).toBe('TOO_MANY_FILES');
  });

  it('stops at a file over the size limit and reports the files before it', async () => {
    const r = await batch('batch-big', [
      { name: 'ok.md', content: `# ok\n\n${randomUUID()}\n` },
      { name: 'big.txt', content: Buffer.alloc(MAX_FILE_BYTES + 1024, 'b') },
      { name: 'never.md', content: '# never read\n' },
    ]);
    expect(r.status).toBe(207);
    expect(r.body.complete).toBe(false);
    expect(r.body.results.map((x) => [x.fileName, x.httpStatus])).toEqual([
      ['ok.md', 202],
      ['big.txt', 413],
    ]);
  });
});

describe('documents', () => {
  let failedId: string;
  let okId: string;

  beforeAll(async () => {
    const ok = await upload('lifecycle', 'ok.md', markdown('lifecycle warbler'));
    // Whitespace passes the type check (it is text) and fails in CLEANING as an empty document.
    const bad = await upload('lifecycle', 'blank.md', '\n\n   \n\t\n');
    okId = ok.body.documentId;
    failedId = bad.body.documentId;
    await waitForDocument(h, alice, okId);
    await waitForDocument(h, alice, failedId);
  });

  it('GET shows a failure with its stage, code and reason', async () => {
    const r = await call<DocumentBody>(h.baseUrl, 'GET', `/v1/documents/${failedId}`, { user: alice });
    expect(r.status).toBe(200);
    expect(r.body.pipelineStatus).toBe('FAILED');
    expect(r.body.failure).toEqual({
      stage: 'CLEANING',
      code: 'EMPTY_DOCUMENT',
      reason: expect.stringMatching(/^EMPTY_DOCUMENT: /),
    });
    expect(r.body.stages[0]).toMatchObject({ stage: 'CLEANING', status: 'FAILED' });
    expect(r.body.stages[1]).toMatchObject({ stage: 'CHUNKING', status: 'PENDING' });
  });

  it('lists a dataset newest first, in pages, filtered by status', async () => {
    await upload('lifecycle', 'third.md', markdown('lifecycle wren'));
    const first = await call<{ documents: DocumentBody[]; nextCursor: string | null }>(
      h.baseUrl,
      'GET',
      '/v1/datasets/lifecycle/documents?limit=2',
      { user: alice },
    );
    expect(first.status).toBe(200);
    expect(first.body.documents).toHaveLength(2);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await call<{ documents: DocumentBody[]; nextCursor: string | null }>(
      h.baseUrl,
      'GET',
      `/v1/datasets/lifecycle/documents?limit=2&cursor=${encodeURIComponent(first.body.nextCursor ?? '')}`,
      { user: alice },
    );
    expect(second.body.documents).toHaveLength(1);
    expect(second.body.nextCursor).toBeNull();
    const all = [...first.body.documents, ...second.body.documents].map((d) => d.documentId);
    expect(new Set(all).size).toBe(3);
    expect(all).toContain(okId);
    expect(all).toContain(failedId);

    const failed = await call<{ documents: DocumentBody[] }>(
      h.baseUrl,
      'GET',
      '/v1/datasets/lifecycle/documents?status=FAILED',
      { user: alice },
    );
    expect(failed.body.documents.map((d) => d.documentId)).toEqual([failedId]);
    const bad = await call<ErrorBody>(h.baseUrl, 'GET', '/v1/datasets/lifecycle/documents?status=BROKEN', {
      user: alice,
    });
    expect(bad.status).toBe(400);
    const forged = await call<ErrorBody>(h.baseUrl, 'GET', '/v1/datasets/lifecycle/documents?cursor=abc', {
      user: alice,
    });
    expect(forged.status).toBe(400);
  });

  it('GET /v1/datasets summarises the datasets and the quota usage', async () => {
    const r = await call<{
      datasets: { datasetId: string; documents: number; failed: number }[];
      usage: { documents: number };
    }>(h.baseUrl, 'GET', '/v1/datasets', {
      user: alice,
    });
    expect(r.status).toBe(200);
    expect(r.body.datasets.find((d) => d.datasetId === 'lifecycle')).toMatchObject({ documents: 3, failed: 1 });
    expect(r.body.usage.documents).toBeGreaterThan(3);
  });

  it('retry: 202 for a failed document (a new task runs), 409 with the reason otherwise', async () => {
    const r = await call<{ taskId: string; via: string }>(h.baseUrl, 'POST', `/v1/documents/${failedId}/retry`, {
      user: alice,
    });
    expect(r.status).toBe(202);
    expect(r.body.taskId).toEqual(expect.any(String));
    const after = await waitForDocument(h, alice, failedId, r.body.taskId);
    // The file is still blank: the new task fails the same way.
    expect(after).toMatchObject({
      pipelineStatus: 'FAILED',
      taskId: r.body.taskId,
      failure: { code: 'EMPTY_DOCUMENT' },
    });

    const refused = await call<ErrorBody>(h.baseUrl, 'POST', `/v1/documents/${okId}/retry`, { user: alice });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('RETRY_VALIDATION_FAILED');
    expect(refused.body.error.message).toMatch(/nothing to retry|succeeded/);
  });

  it('search returns chunk text, section path, document and score', async () => {
    const r = await call<{
      hits: { documentId: string; text: string; sectionPath: string[]; score: number; fileName: string }[];
    }>(h.baseUrl, 'GET', `/v1/datasets/lifecycle/search?q=${encodeURIComponent('lifecycle warbler')}&limit=3`, {
      user: alice,
    });
    expect(r.status).toBe(200);
    expect(r.body.hits[0]).toMatchObject({
      documentId: okId,
      fileName: 'ok.md',
      sectionPath: ['Field guide', 'Sightings'],
      score: expect.any(Number),
    });
    expect(r.body.hits[0]?.text).toContain('lifecycle warbler');
    const missingQ = await call(h.baseUrl, 'GET', '/v1/datasets/lifecycle/search', { user: alice });
    expect(missingQ.status).toBe(400);
  });

  it('DELETE answers 202 and the document, its chunks and objects are removed in the background', async () => {
    const r = await call<{ workflowId: string }>(h.baseUrl, 'DELETE', `/v1/documents/${okId}`, { user: alice });
    expect(r.status).toBe(202);
    expect(r.body.workflowId).toBe(`delete:${okId}`);
    await eventually(
      () => call(h.baseUrl, 'GET', `/v1/documents/${okId}`, { user: alice }),
      (x) => x.status === 404,
      60_000,
      200,
    );
    const hits = await call<{ hits: { documentId: string }[] }>(
      h.baseUrl,
      'GET',
      `/v1/datasets/lifecycle/search?q=warbler`,
      { user: alice },
    );
    expect(hits.body.hits.map((x) => x.documentId)).not.toContain(okId);
    expect((await objectFilesOf(h.tw.config, alice.userId)).filter((f) => f.includes(okId))).toEqual([]);
    expect((await call(h.baseUrl, 'DELETE', `/v1/documents/${okId}`, { user: alice })).status).toBe(404);
  });
});

describe('server-sent events', () => {
  it('streams the stage transitions of a run until it ends', async () => {
    const r = await upload('events', 'events.md', sectionedMarkdown(6, 'events'));
    const events = await readEvents(h.baseUrl, `/v1/documents/${r.body.documentId}/events`, alice);
    expect(events[0]?.event).toBe('progress');
    expect(events.at(-1)).toMatchObject({ event: 'end', data: { status: 'SUCCESS', documentId: r.body.documentId } });
    const stageEvents = events
      .filter((e) => e.event === 'stage')
      .map((e) => e.data as { stage: string; from: string; to: string });
    expect(stageEvents.length).toBeGreaterThan(0);
    const lastProgress = events.filter((e) => e.event === 'progress').at(-1)?.data as {
      stages: Record<string, string>;
    };
    expect(Object.values(lastProgress.stages)).toEqual(Array(6).fill('SUCCESS'));
    // Each stage only moves forward: PENDING → PROCESSING → SUCCESS.
    const order = ['PENDING', 'PROCESSING', 'SUCCESS'];
    for (const e of stageEvents) expect(order.indexOf(e.to)).toBeGreaterThan(order.indexOf(e.from));
  });

  it("answers 404 for a document that is not the caller's", async () => {
    const r = await call(h.baseUrl, 'GET', `/v1/documents/${randomUUID()}/events`, { user: alice });
    expect(r.status).toBe(404);
  });
});

describe('admin session', () => {
  it('signs in with a key into an HttpOnly cookie; cookie writes need the admin header', async () => {
    const login = await call(h.baseUrl, 'GET', '/admin');
    expect(login.status).toBe(200);
    expect(String(login.body)).toContain('id="login-form"');
    expect(login.headers.get('content-security-policy')).toContain("script-src 'self'");

    const wrong = await call<ErrorBody>(h.baseUrl, 'POST', '/admin/session', { body: { apiKey: 'sk_nope' } });
    expect(wrong.status).toBe(401);
    const session = await call(h.baseUrl, 'POST', '/admin/session', { body: { apiKey: alice.apiKey } });
    expect(session.status).toBe(204);
    const cookie = session.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const cookieHeader = { cookie: cookie.split(';')[0] ?? '' };

    const page = await call<string>(h.baseUrl, 'GET', '/admin?dataset=lifecycle', { headers: cookieHeader });
    expect(page.body).toContain(`signed in as <strong id="user-id">${alice.userId}</strong>`);
    expect(page.body).toContain('EMPTY_DOCUMENT');
    const uiBase = h.tw.config.temporal.uiUrl.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    expect(page.body).toMatch(new RegExp(`href="${uiBase}/namespaces/default/workflows/ingest:[0-9a-f-]{36}"`));

    const doc = await upload('admin-csrf', 'x.md', `# x\n\n${randomUUID()}\n`);
    await waitForDocument(h, alice, doc.body.documentId);
    const forged = await call(h.baseUrl, 'DELETE', `/v1/documents/${doc.body.documentId}`, { headers: cookieHeader });
    expect(forged.status).toBe(401);
    const allowed = await call(h.baseUrl, 'DELETE', `/v1/documents/${doc.body.documentId}`, {
      headers: { ...cookieHeader, 'x-sluice-admin': '1' },
    });
    expect(allowed.status).toBe(202);
  });
});

// ---- helpers -------------------------------------------------------------------------------

interface StreamResult {
  status: number | null;
  body: string;
  connection: string | null;
  bytesProduced: number;
  error: string | null;
}

/** A multipart upload of `size` bytes whose body comes from a generator, pulled only as fast as the socket drains. */
function streamUpload(
  baseUrl: string,
  path: string,
  user: TestUser,
  size: number,
  fileName: string,
): Promise<StreamResult> {
  const boundary = `----sluice-${randomUUID()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: text/plain\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const block = Buffer.alloc(64 * 1024, 'a');
  let bytesProduced = 0;
  function* body(): Generator<Buffer> {
    yield head;
    for (let sent = 0; sent < size; sent += block.length) {
      bytesProduced += block.length;
      yield block;
    }
    yield tail;
  }
  return new Promise((resolve) => {
    let settled = false;
    let stopped = false;
    const finish = (result: Omit<StreamResult, 'bytesProduced'>) => {
      if (settled) return;
      settled = true;
      stopped = true;
      resolve({ ...result, bytesProduced });
    };
    const req = http.request(`${baseUrl}${path}`, {
      method: 'POST',
      headers: {
        ...user.auth,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + size + tail.length),
      },
    });
    req.on('response', (res) => {
      stopped = true;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        finish({ status: res.statusCode ?? null, body: text, connection: res.headers.connection ?? null, error: null }),
      );
      res.on('error', (error) =>
        finish({
          status: res.statusCode ?? null,
          body: text,
          connection: res.headers.connection ?? null,
          error: error.message,
        }),
      );
    });
    req.on('error', (error) => finish({ status: null, body: '', connection: null, error: error.message }));
    const pump = async () => {
      for (const piece of body()) {
        if (stopped || req.destroyed) return;
        if (!req.write(piece)) {
          await new Promise<void>((resolve) => {
            const done = () => {
              req.off('drain', done);
              req.off('close', done);
              resolve();
            };
            req.on('drain', done);
            req.on('close', done);
          });
        }
      }
      req.end();
    };
    void pump();
  });
}

/** Reads a text/event-stream to its end and parses the events. */
async function readEvents(baseUrl: string, path: string, user: TestUser): Promise<{ event: string; data: unknown }[]> {
  const response = await fetch(`${baseUrl}${path}`, { headers: user.auth });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const text = await response.text();
  return text
    .split('\n\n')
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      return event && data ? { event, data: JSON.parse(data) as unknown } : null;
    })
    .filter((e): e is { event: string; data: unknown } => e !== null);
}
