import { randomBytes } from 'node:crypto';
import {
  call,
  fileForm,
  newUser,
  startApi,
  waitForDocument,
  type ApiHarness,
  type TestUser,
} from '../../testkit/harness/apiHarness';
import { startRerankServer, wordOverlap, type RerankServer } from '../../testkit/fakes/rerankServer';

// A user's reranker end to end: set through /v1/model-configs/rerank in both request shapes, called
// by search and the hit test over the HTTP API on a real worker's dataset, and a reranker that times
// out or fails leaving the fused order with the response saying why.

const SECRET_KEY = randomBytes(32).toString('base64');
const API_KEY = 'sk-rerank-SECRET-0a1b2c3d';
const DATASET = 'rerank';
const QUERY = 'heron nest marsh reeds';
let h: ApiHarness;
let reranker: RerankServer;
let user: TestUser;

type Hit = { chunkId: string; text: string; score: number; fusedScore: number; rerankScore?: number };
type SearchBody = { hits: Hit[]; rerank: Record<string, unknown> };

const search = (limit = 5) =>
  call<SearchBody>(h.baseUrl, 'GET', `/v1/datasets/${DATASET}/search?q=${encodeURIComponent(QUERY)}&limit=${limit}`, {
    user,
  });

beforeAll(async () => {
  reranker = await startRerankServer();
  h = await startApi({
    SLUICE_SECRET_KEY: SECRET_KEY,
    SLUICE_OUTBOUND_ALLOW_PRIVATE: 'true',
    SLUICE_RERANK_TIMEOUT_MS: '500',
    SLUICE_RERANK_CANDIDATES: '8',
  });
  user = await newUser(h, 'rerank');
  // Documents that hold the query's words in different measures, so the word-overlap reranker has an order to impose.
  const notes = [
    'The heron waits at the marsh edge at dawn.',
    'A heron builds its nest of sticks high in the reeds of the marsh.',
    'Reeds grow where the water is shallow.',
    'Rain fell all week over the hills.',
    'The marsh floods each spring; herons nest there.',
  ];
  for (const [i, note] of notes.entries()) {
    const uploaded = await call<{ documentId: string }>(h.baseUrl, 'POST', `/v1/datasets/${DATASET}/documents`, {
      user,
      body: fileForm([{ name: `note-${i}.md`, content: `# Note ${i}\n\n${note}\n` }]),
    });
    expect(uploaded.status).toBe(202);
    h.tw.track(uploaded.body.documentId);
    expect((await waitForDocument(h, user, uploaded.body.documentId)).pipelineStatus).toBe('SUCCESS');
  }
});
afterAll(async () => {
  await h.close();
  await reranker.close();
});

it('without a reranker, search says none is configured and answers the fused order', async () => {
  const r = await search();
  expect(r.status).toBe(200);
  expect(r.body.rerank).toEqual({ applied: false, reason: 'none configured' });
  expect(r.body.hits.length).toBeGreaterThan(1);
  expect(r.body.hits.every((hit) => hit.score === hit.fusedScore && hit.rerankScore === undefined)).toBe(true);
});

it('a reranker needs its API shape; refused without it', async () => {
  const r = await call<{ error: { code: string; message: string } }>(h.baseUrl, 'PUT', '/v1/model-configs/rerank', {
    user,
    body: { baseUrl: reranker.teiUrl, model: 'bge-reranker' },
  });
  expect(r.status).toBe(400);
  expect(r.body.error.message).toMatch(/API shape: tei or cohere/);
});

it.each([
  ['tei', () => reranker.teiUrl, '/rerank'],
  ['cohere', () => reranker.cohereUrl, '/v1/rerank'],
] as const)('with a %s reranker, search answers its order, each hit with both scores', async (shape, url, path) => {
  const put = await call<{ config: { apiShape: string; apiKey: string } }>(
    h.baseUrl,
    'PUT',
    '/v1/model-configs/rerank',
    {
      user,
      body: { baseUrl: url(), model: 'bge-reranker', apiShape: shape, apiKey: API_KEY },
    },
  );
  expect(put.status).toBe(200);
  expect(put.body.config.apiShape).toBe(shape);
  expect(put.body.config.apiKey).not.toContain(API_KEY);
  const tested = await call<{ ok: boolean }>(h.baseUrl, 'POST', '/v1/model-configs/rerank/test', { user });
  expect(tested.body.ok).toBe(true);

  const fused = (
    await call<SearchBody>(h.baseUrl, 'POST', `/v1/datasets/${DATASET}/hit-test`, {
      user,
      body: { query: QUERY, limit: 5, adjust: { rerank: false } },
    })
  ).body;
  expect(fused.rerank).toEqual({ applied: false, reason: 'off for the dataset' });
  const before = reranker.requests.length;
  const r = await search(3);
  expect(r.status).toBe(200);
  expect(r.body.rerank).toMatchObject({ applied: true, model: 'bge-reranker', candidates: fused.hits.length });
  const sent = reranker.requests.slice(before);
  expect(sent.map((s) => [s.path, s.authorization])).toEqual([[path, `Bearer ${API_KEY}`]]);
  // The reranker saw every fused candidate (up to SLUICE_RERANK_CANDIDATES), not only the page.
  const texts = (shape === 'tei' ? sent[0]?.body.texts : sent[0]?.body.documents) as string[];
  expect(texts).toHaveLength(fused.hits.length);
  const expected = [...fused.hits]
    .map((hit, rank) => ({ hit, rank, overlap: wordOverlap(QUERY, hit.text) }))
    .sort((a, b) => b.overlap - a.overlap || a.rank - b.rank)
    .slice(0, 3);
  expect(r.body.hits.map((hit) => hit.chunkId)).toEqual(expected.map((e) => e.hit.chunkId));
  expect(r.body.hits.map((hit) => hit.rerankScore)).toEqual(expected.map((e) => e.overlap));
  expect(r.body.hits.map((hit) => hit.fusedScore)).toEqual(expected.map((e) => e.hit.fusedScore));
});

it('a reranker that times out or fails leaves the fused order, and the response says why', async () => {
  const fused = (
    await call<SearchBody>(h.baseUrl, 'POST', `/v1/datasets/${DATASET}/hit-test`, {
      user,
      body: { query: QUERY, limit: 3, adjust: { rerank: false } },
    })
  ).body;
  reranker.setMode({ delayMs: 2_000 });
  const slow = await search(3);
  expect(slow.status).toBe(200);
  expect(slow.body.rerank).toMatchObject({ applied: false, reason: 'no answer within 500 ms' });
  expect(slow.body.hits.map((hit) => hit.chunkId)).toEqual(fused.hits.map((hit) => hit.chunkId));
  reranker.setMode({ status: 503 });
  const failed = await search(3);
  expect(failed.status).toBe(200);
  expect(failed.body.rerank).toMatchObject({ applied: false, reason: expect.stringMatching(/503/) });
  expect(failed.body.hits.map((hit) => hit.chunkId)).toEqual(fused.hits.map((hit) => hit.chunkId));
  reranker.setMode('score');
});
