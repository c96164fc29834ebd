import { callReranker, RerankFailedError, type RerankerSettings } from '../../../rerank/rerankClient';
import { rerankHits } from '../../../search/rerankHits';
import { startRerankServer, type RerankServer } from '../../../testkit/fakes/rerankServer';

// The client against a local HTTP server that speaks both shapes (testkit/fakes/rerankServer.ts).
const outbound = { allowPrivate: true };
const options = { outbound, timeoutMs: 500, maxResponseBytes: 64 * 1024 };
let server: RerankServer;
beforeAll(async () => {
  server = await startRerankServer();
});
afterAll(() => server.close());
beforeEach(() => server.setMode('score'));

const texts = ['the weather was fine', 'where postgres keeps its data directory', 'postgres data'];
const query = 'where does postgres keep its data';

describe.each([
  ['tei', () => server.teiUrl, '/rerank'],
  ['cohere', () => server.cohereUrl, '/v1/rerank'],
] as const)('the %s shape', (shape, url, path) => {
  const settings = (): RerankerSettings => ({ baseUrl: url(), model: 'reranker-1', shape, apiKey: 'sk-rerank-1' });

  it('scores every text by the index it was sent at, with the key as a bearer token', async () => {
    const scores = (await callReranker(settings(), query, texts, options)) as number[];
    expect(scores).toHaveLength(3);
    expect(scores[1]!).toBeGreaterThan(scores[2]!);
    expect(scores[2]!).toBeGreaterThan(scores[0]!);
    const last = server.requests.at(-1)!;
    expect(last.path).toBe(path);
    expect(last.authorization).toBe('Bearer sk-rerank-1');
  });

  it('names a timeout, an error status and an answer of another shape', async () => {
    server.setMode({ delayMs: 1_500 });
    await expect(callReranker(settings(), query, texts, options)).rejects.toThrow(/no answer within 500 ms/);
    server.setMode({ status: 503 });
    await expect(callReranker(settings(), query, texts, options)).rejects.toThrow(RerankFailedError);
    server.setMode('wrong-shape');
    await expect(callReranker(settings(), query, texts, options)).rejects.toThrow(/answered something other than/);
  });
});

it('refuses a private address unless the outbound policy allows it, naming no host', async () => {
  const settings: RerankerSettings = { baseUrl: server.teiUrl, model: 'm', shape: 'tei', apiKey: null };
  const refused = callReranker(settings, query, texts, { ...options, outbound: { allowPrivate: false } });
  await expect(refused).rejects.toThrow(RerankFailedError);
  await expect(refused).rejects.not.toThrow(/127\.0\.0\.1/);
});

describe('search hits in the reranker order', () => {
  const hits = texts.map((text, i) => ({ id: `c${i}`, text, score: 0.03 - i * 0.001 }));
  const reranker = (shape: 'tei' | 'cohere') => ({
    model: 'reranker-1',
    rerank: (q: string, t: string[]) =>
      callReranker(
        { baseUrl: shape === 'tei' ? server.teiUrl : server.cohereUrl, model: 'reranker-1', shape, apiKey: null },
        q,
        t,
        options,
      ),
  });

  it('reorders the fused candidates and keeps each fused score beside the reranker one', async () => {
    const { hits: ranked, report } = await rerankHits(query, hits, reranker('cohere'));
    expect(ranked.map((h) => h.id)).toEqual(['c1', 'c2', 'c0']);
    expect(ranked[0]).toMatchObject({ fusedScore: hits[1]!.score, rerankScore: ranked[0]!.score });
    expect(report).toMatchObject({ applied: true, model: 'reranker-1', candidates: 3 });
  });

  it('maps logits to 0..1 and orders by them', async () => {
    server.setMode('logits');
    const { hits: ranked } = await rerankHits(query, hits, reranker('tei'));
    expect(ranked.map((h) => h.id)).toEqual(['c1', 'c2', 'c0']);
    expect(ranked.every((h) => h.score > 0 && h.score < 1)).toBe(true);
  });

  it('keeps the fused order and says why when the reranker times out or fails', async () => {
    server.setMode({ delayMs: 1_500 });
    const slow = await rerankHits(query, hits, reranker('tei'));
    expect(slow.hits.map((h) => h.id)).toEqual(['c0', 'c1', 'c2']);
    expect(slow.hits.every((h) => h.rerankScore === undefined && h.score === h.fusedScore)).toBe(true);
    expect(slow.report).toMatchObject({ applied: false, reason: 'no answer within 500 ms' });
    server.setMode({ status: 500 });
    const failed = await rerankHits(query, hits, reranker('cohere'));
    expect(failed.hits.map((h) => h.id)).toEqual(['c0', 'c1', 'c2']);
    expect(failed.report).toMatchObject({ applied: false, reason: expect.stringMatching(/500/) });
  });
});
