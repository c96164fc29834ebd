import { inspect } from 'node:util';
import { SluiceError } from '../../contracts/sluiceError';
import { createOpenAiEmbedder, type OpenAiEmbedderOptions } from '../../embedders/openAiEmbedder';
import { retryAfterMs } from '../../embedders/providerHttp';
import { fakeVector, startFakeEmbeddingServer, type FakeEmbeddingServer } from '../support/fakeEmbeddingServer';

// The OpenAI-compatible embedder against a real local HTTP server that speaks the embeddings API.

const API_KEY = 'sk-test-SECRET-do-not-leak-4f1c9a';
const DIMENSION = 4;

let server: FakeEmbeddingServer;
beforeEach(async () => {
  server = await startFakeEmbeddingServer({ apiKey: API_KEY, dimension: DIMENSION, delayMs: 30 });
});
afterEach(() => server.close());

const embedder = (overrides: Partial<OpenAiEmbedderOptions> = {}) =>
  createOpenAiEmbedder({ baseUrl: server.baseUrl, apiKey: API_KEY, model: 'test-embed', dimension: DIMENSION, ...overrides });

const texts = (n: number) => Array.from({ length: n }, (_, i) => `text number ${i}`);

/** The rejection of `promise`, checked to be a SluiceError that leaks no key anywhere. */
async function failureOf(promise: Promise<unknown>, secret = API_KEY): Promise<SluiceError> {
  const err: unknown = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SluiceError);
  const sluiceError = err as SluiceError;
  for (const text of [sluiceError.message, sluiceError.stack ?? '', inspect(sluiceError, { depth: 10 }), JSON.stringify(sluiceError)]) {
    expect(text).not.toContain(secret);
  }
  return sluiceError;
}

describe('OpenAI-compatible embedder', () => {
  it('sends batches of batchSize with the bearer key and returns vectors in input order', async () => {
    const inputs = texts(7);
    const vectors = await embedder({ batchSize: 3 }).embed(inputs);
    expect(vectors).toEqual(inputs.map((t) => fakeVector(t, DIMENSION)));
    expect(server.requests.map((r) => r.inputs.length).sort()).toEqual([1, 3, 3]);
    expect(server.requests.flatMap((r) => r.inputs).sort()).toEqual([...inputs].sort());
    for (const request of server.requests) {
      expect(request.authorization).toBe(`Bearer ${API_KEY}`);
      expect(request.body).toEqual({ model: 'test-embed', input: request.inputs, encoding_format: 'float' });
    }
    expect(await embedder().embed([])).toEqual([]);
  });

  it('sends `dimensions` when asked to (and by default for text-embedding-3 models)', async () => {
    await embedder({ sendDimensions: true }).embed(['a']);
    await embedder({ model: 'text-embedding-3-small' }).embed(['b']);
    await embedder({ model: 'text-embedding-3-small', sendDimensions: false }).embed(['c']);
    expect(server.requests.map((r) => r.body.dimensions)).toEqual([DIMENSION, DIMENSION, undefined]);
  });

  it('keeps at most `concurrency` requests in flight', async () => {
    const inputs = texts(20);
    const vectors = await embedder({ batchSize: 2, concurrency: 3 }).embed(inputs);
    expect(vectors).toEqual(inputs.map((t) => fakeVector(t, DIMENSION)));
    expect(server.requests).toHaveLength(10);
    expect(server.maxInFlight).toBe(3);
  });

  it('waits as long as Retry-After says before retrying a 429', async () => {
    server.queueFaults({ kind: 'rate-limit', retryAfter: '1' });
    const vectors = await embedder({ maxRetries: 2 }).embed(['x']);
    expect(vectors).toEqual([fakeVector('x', DIMENSION)]);
    expect(server.requests).toHaveLength(2);
    const [first, second] = server.requests;
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it('retries 5xx answers with back-off, then succeeds', async () => {
    server.queueFaults({ kind: 'server-error' }, { kind: 'server-error', status: 503 });
    expect(await embedder({ maxRetries: 3 }).embed(['y'])).toEqual([fakeVector('y', DIMENSION)]);
    expect(server.requests).toHaveLength(3);
  });

  it('fails transiently (VECTORIZING_FAILED) once retries are exhausted', async () => {
    server.setStandingFault({ kind: 'server-error' });
    const err = await failureOf(embedder({ maxRetries: 1 }).embed(['z']));
    expect(err.code).toBe('VECTORIZING_FAILED');
    expect(err.permanent).toBe(false);
    expect(err.message).toMatch(/2 attempts.*HTTP 500.*The server had an error/);
    expect(server.requests).toHaveLength(2);
  });

  it('refuses vectors of another dimension with EMBEDDING_DIMENSION_UNSUPPORTED', async () => {
    server.queueFaults({ kind: 'wrong-dimension' });
    const err = await failureOf(embedder().embed(['w']));
    expect(err.code).toBe('EMBEDDING_DIMENSION_UNSUPPORTED');
    expect(err.permanent).toBe(true);
    expect(err.message).toMatch(/returned 5-dimensional vectors.*says 4/);
    expect(server.requests).toHaveLength(1);
  });

  it('fails permanently on 401 without retrying, and never reveals the key the provider echoed', async () => {
    const wrongKey = 'sk-wrong-KEY-also-secret-77aa';
    const err = await failureOf(embedder({ apiKey: wrongKey }).embed(['v']), wrongKey);
    expect(err.code).toBe('VECTORIZING_FAILED');
    expect(err.permanent).toBe(true);
    expect(err.message).toMatch(/HTTP 401: Incorrect API key provided: \[redacted\]/);
    expect(server.requests).toHaveLength(1);
  });

  it('fails permanently on 400 and stops the other batches', async () => {
    server.queueFaults({ kind: 'bad-request' });
    const err = await failureOf(embedder({ batchSize: 1, concurrency: 1 }).embed(texts(5)));
    expect(err.permanent).toBe(true);
    expect(err.message).toMatch(/HTTP 400: 'input' is invalid/);
    expect(server.requests).toHaveLength(1);
  });

  it('times out a hanging request, retries it, then fails transiently', async () => {
    server.setStandingFault({ kind: 'hang' });
    const started = Date.now();
    const err = await failureOf(embedder({ timeoutMs: 200, maxRetries: 1 }).embed(['u']));
    expect(err.code).toBe('VECTORIZING_FAILED');
    expect(err.permanent).toBe(false);
    expect(err.message).toMatch(/no answer within 200 ms/);
    expect(server.requests).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
  });

  it('fails transiently when the server cannot be reached', async () => {
    // Start the replacement first so the closed server's port cannot be handed straight back to it.
    const dead = server;
    server = await startFakeEmbeddingServer({ apiKey: API_KEY, dimension: DIMENSION });
    await dead.close();
    const baseUrl = dead.baseUrl;
    const err = await failureOf(createOpenAiEmbedder({ baseUrl, apiKey: API_KEY, model: 'm', dimension: DIMENSION, maxRetries: 1 }).embed(['t']));
    expect(err.permanent).toBe(false);
    expect(err.message).toMatch(/network error: fetch failed/);
  });
});

describe('Retry-After parsing', () => {
  const headers = (init: Record<string, string>) => new Headers(init);

  it('reads delta-seconds, HTTP dates and retry-after-ms', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs(headers({ 'retry-after': '2' }), now)).toBe(2000);
    expect(retryAfterMs(headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }), now)).toBe(5000);
    expect(retryAfterMs(headers({ 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }), now)).toBe(0);
    expect(retryAfterMs(headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
    expect(retryAfterMs(headers({ 'retry-after': 'soon' }), now)).toBeNull();
    expect(retryAfterMs(headers({}), now)).toBeNull();
  });
});
