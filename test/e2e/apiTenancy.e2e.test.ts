import { randomUUID } from 'node:crypto';
import {
  call,
  fileForm,
  newUser,
  startApi,
  waitForDocument,
  type ApiHarness,
  type DocumentBody,
  type TestUser,
} from '../../testkit/harness/apiHarness';

// Two users, one dataset name. With B's key, nothing of A's exists: every read, retry, delete,
// event stream and search over A's populated dataset fails or comes back empty.
const DATASET = 'shared-name';
let h: ApiHarness;
let alice: TestUser;
let bob: TestUser;
const aliceDocs: string[] = [];
let aliceFailed: string;

const PHRASES = ['saffron lighthouse', 'cobalt orchard', 'velvet quarry'];
const doc = (phrase: string) =>
  `# Notes of A\n\n## Section\n\nThe ${phrase} belongs to the first tenant only ${randomUUID()}.\n`;

async function upload(user: TestUser, name: string, content: string) {
  const r = await call<{ documentId: string }>(h.baseUrl, 'POST', `/v1/datasets/${DATASET}/documents`, {
    user,
    body: fileForm([{ name, content }]),
  });
  expect(r.status).toBe(202);
  h.tw.track(r.body.documentId);
  return r.body.documentId;
}

beforeAll(async () => {
  h = await startApi();
  alice = await newUser(h, 'tenant-a');
  bob = await newUser(h, 'tenant-b');
  for (const [i, phrase] of PHRASES.entries()) aliceDocs.push(await upload(alice, `a-${i}.md`, doc(phrase)));
  aliceFailed = await upload(alice, 'blank.md', '\n   \n');
  for (const id of aliceDocs) expect((await waitForDocument(h, alice, id)).pipelineStatus).toBe('SUCCESS');
  expect((await waitForDocument(h, alice, aliceFailed)).pipelineStatus).toBe('FAILED');
});
afterAll(() => h?.close());

it("B cannot read, follow, retry or delete A's documents: each is 404, exactly like a missing one", async () => {
  for (const id of [...aliceDocs, aliceFailed]) {
    const attempts = [
      call(h.baseUrl, 'GET', `/v1/documents/${id}`, { user: bob }),
      call(h.baseUrl, 'GET', `/v1/documents/${id}/events`, { user: bob }),
      call(h.baseUrl, 'POST', `/v1/documents/${id}/retry`, { user: bob }),
      call(h.baseUrl, 'DELETE', `/v1/documents/${id}`, { user: bob }),
      call(h.baseUrl, 'GET', `/admin/rows/${id}`, { user: bob }),
    ];
    for (const r of await Promise.all(attempts)) {
      expect(r.status).toBe(404);
      expect(JSON.stringify(r.body)).not.toContain(alice.userId);
    }
    const missing = await call(h.baseUrl, 'GET', `/v1/documents/${randomUUID()}`, { user: bob });
    const foreign = await call(h.baseUrl, 'GET', `/v1/documents/${id}`, { user: bob });
    expect({
      ...(foreign.body as object),
      error: { ...(foreign.body as { error: object }).error, requestId: '' },
    }).toEqual({
      ...(missing.body as object),
      error: { ...(missing.body as { error: object }).error, requestId: '' },
    });
  }
  // A's documents are untouched: the failed one was not retried, none was deleted.
  for (const id of aliceDocs)
    expect((await call<DocumentBody>(h.baseUrl, 'GET', `/v1/documents/${id}`, { user: alice })).body).toMatchObject({
      lifecycle: 'ACTIVE',
      pipelineStatus: 'SUCCESS',
    });
  const failed = await call<DocumentBody>(h.baseUrl, 'GET', `/v1/documents/${aliceFailed}`, { user: alice });
  expect(failed.body).toMatchObject({ lifecycle: 'ACTIVE', pipelineStatus: 'FAILED' });
});

it("B's listing of the same dataset name and B's datasets show none of A's documents", async () => {
  for (const status of ['', '?status=SUCCESS', '?status=FAILED']) {
    const r = await call<{ documents: unknown[] }>(h.baseUrl, 'GET', `/v1/datasets/${DATASET}/documents${status}`, {
      user: bob,
    });
    expect(r.status).toBe(200);
    expect(r.body.documents).toEqual([]);
  }
  const datasets = await call<{ datasets: unknown[]; usage: { documents: number } }>(h.baseUrl, 'GET', '/v1/datasets', {
    user: bob,
  });
  expect(datasets.body.datasets).toEqual([]);
  expect(datasets.body.usage.documents).toBe(0);
});

it("B's search over the same dataset name never returns A's chunks, even once B has documents there", async () => {
  for (const phrase of PHRASES) {
    const r = await call<{ hits: unknown[] }>(
      h.baseUrl,
      'GET',
      `/v1/datasets/${DATASET}/search?q=${encodeURIComponent(phrase)}`,
      { user: bob },
    );
    expect(r.status).toBe(200);
    expect(r.body.hits).toEqual([]);
  }
  // B uploads A's exact content: content dedupe is per user, so B gets a document of its own.
  const copy = await upload(bob, 'copy.md', await sourceOf(aliceDocs[0] ?? ''));
  expect(aliceDocs).not.toContain(copy);
  expect((await waitForDocument(h, bob, copy)).pipelineStatus).toBe('SUCCESS');
  const own = await upload(bob, 'own.md', `# B\n\nThe ${PHRASES[1]} of the second tenant ${randomUUID()}.\n`);
  expect((await waitForDocument(h, bob, own)).pipelineStatus).toBe('SUCCESS');

  for (const phrase of PHRASES) {
    const r = await call<{ hits: { documentId: string; chunkId: string }[] }>(
      h.baseUrl,
      'GET',
      `/v1/datasets/${DATASET}/search?q=${encodeURIComponent(phrase)}&limit=50`,
      {
        user: bob,
      },
    );
    const docs = new Set(r.body.hits.map((x) => x.documentId));
    for (const id of aliceDocs) expect(docs.has(id)).toBe(false);
    for (const id of docs) expect([copy, own]).toContain(id);
  }
  // And A still sees only A's.
  const a = await call<{ hits: { documentId: string }[] }>(
    h.baseUrl,
    'GET',
    `/v1/datasets/${DATASET}/search?q=${encodeURIComponent(PHRASES[1] ?? '')}&limit=50`,
    { user: alice },
  );
  expect(a.body.hits.length).toBeGreaterThan(0);
  for (const hit of a.body.hits) expect(aliceDocs).toContain(hit.documentId);
});

it("B's admin page shows none of A's documents", async () => {
  const session = await call(h.baseUrl, 'POST', '/admin/session', { body: { apiKey: bob.apiKey } });
  const cookie = (session.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const page = await call<string>(h.baseUrl, 'GET', `/admin?dataset=${DATASET}`, { headers: { cookie } });
  expect(page.status).toBe(200);
  for (const id of [...aliceDocs, aliceFailed]) expect(page.body).not.toContain(id);
  expect(page.body).not.toContain(alice.userId);
});

async function sourceOf(documentId: string): Promise<string> {
  const row = await h.tw.adapters.db
    .selectFrom('documents')
    .select('source_object_key')
    .where('id', '=', documentId)
    .executeTakeFirstOrThrow();
  return h.tw.adapters.objects.getText(row.source_object_key);
}
