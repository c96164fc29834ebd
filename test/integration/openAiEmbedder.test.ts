import v8 from 'node:v8';
import vm from 'node:vm';
import http from 'node:http';
import type net from 'node:net';
import { inspect } from 'node:util';
import { loadConfig } from '../../config/config';
import { SluiceError } from '../../contracts/sluiceError';
import { createOpenAiEmbedder, type OpenAiEmbedderOptions } from '../../embedders/openAiEmbedder';
import { retryAfterMs } from '../../embedders/providerHttp';
import {
  fakeVector,
  startFakeEmbeddingServer,
  type FakeEmbeddingServer,
} from '../../testkit/fakes/fakeEmbeddingServer';

// The OpenAI-compatible embedder against a real local HTTP server that speaks the embeddings API.

const API_KEY = 'sk-test-SECRET-do-not-leak-4f1c9a';
const DIMENSION = 4;
// The fake provider listens on loopback, which only an allowing policy may reach.
const ALLOW_PRIVATE = { allowPrivate: true };
const REFUSE_PRIVATE = { allowPrivate: false };

let server: FakeEmbeddingServer;
beforeEach(async () => {
  server = await startFakeEmbeddingServer({ apiKey: API_KEY, dimension: DIMENSION, delayMs: 30 });
});
afterEach(() => server.close());

const embedder = (overrides: Partial<OpenAiEmbedderOptions> = {}) =>
  createOpenAiEmbedder({
    baseUrl: server.baseUrl,
    apiKey: API_KEY,
    model: 'test-embed',
    dimension: DIMENSION,
    outbound: ALLOW_PRIVATE,
    ...overrides,
  });

const texts = (n: number) => Array.from({ length: n }, (_, i) => `text number ${i}`);

/** The rejection of `promise`, checked to be a SluiceError that leaks no key anywhere. */
async function failureOf(promise: Promise<unknown>, secret = API_KEY): Promise<SluiceError> {
  const err: unknown = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SluiceError);
  const sluiceError = err as SluiceError;
  for (const text of [
    sluiceError.message,
    sluiceError.stack ?? '',
    inspect(sluiceError, { depth: 10 }),
    JSON.stringify(sluiceError),
  ]) {
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

  it('hands a Retry-After too long to sleep through to the activity, which waits it before its next attempt', async () => {
    server.queueFaults({ kind: 'rate-limit', retryAfter: '600' });
    const err = await failureOf(embedder({ maxRetries: 2 }).embed(['w']));
    expect(err).toMatchObject({ code: 'VECTORIZING_FAILED', permanent: false, retryAfterMs: 600_000 });
    expect(server.requests).toHaveLength(1);
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
    expect(err.message).toMatch(/2 attempts.*HTTP 500/);
    // The provider's own words are details for the worker log, not for the tenant.
    expect(err.message).not.toContain('The server had an error');
    expect(String(err.cause)).toContain('The server had an error');
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
    expect(err.message).toMatch(/HTTP 401 \(unauthorized: check the API key\)/);
    expect(String(err.cause)).toMatch(/Incorrect API key provided: \[redacted\]/);
    expect(server.requests).toHaveLength(1);
  });

  it('fails permanently on 400 and stops the other batches', async () => {
    server.queueFaults({ kind: 'bad-request' });
    const err = await failureOf(embedder({ batchSize: 1, concurrency: 1 }).embed(texts(5)));
    expect(err.permanent).toBe(true);
    expect(err.message).toMatch(/HTTP 400 \(bad request\)/);
    expect(String(err.cause)).toContain("'input' is invalid");
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

  it('times out a hanging request while the garbage collector runs (an inline timeout signal would be collected)', async () => {
    v8.setFlagsFromString('--expose-gc');
    const collect = vm.runInNewContext('gc') as () => void;
    server.setStandingFault({ kind: 'hang' });
    const collecting = setInterval(collect, 10);
    try {
      const err = await failureOf(embedder({ timeoutMs: 200, maxRetries: 0 }).embed(['g']));
      expect(err).toMatchObject({ code: 'VECTORIZING_FAILED', permanent: false });
      expect(err.message).toMatch(/no answer within 200 ms/);
    } finally {
      clearInterval(collecting);
    }
  });

  it('fails transiently when the server cannot be reached', async () => {
    // Start the replacement first so the closed server's port cannot be handed straight back to it.
    const dead = server;
    server = await startFakeEmbeddingServer({ apiKey: API_KEY, dimension: DIMENSION });
    await dead.close();
    const baseUrl = dead.baseUrl;
    const err = await failureOf(
      createOpenAiEmbedder({
        baseUrl,
        apiKey: API_KEY,
        model: 'm',
        dimension: DIMENSION,
        maxRetries: 1,
        outbound: ALLOW_PRIVATE,
      }).embed(['t']),
    );
    expect(err.permanent).toBe(false);
    expect(err.message).toMatch(/network error \(ECONNREFUSED\)/);
    expect(err.message).not.toContain('127.0.0.1');
  });
});

/** A one-route server answering every request with `answer`; counts what it received. */
async function scriptedServer(
  answer: (res: http.ServerResponse) => void,
): Promise<{ baseUrl: string; port: number; hits: () => number; close(): Promise<void> }> {
  let hits = 0;
  const srv = http.createServer((req, res) => {
    hits += 1;
    req.resume();
    req.on('end', () => answer(res));
  });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as net.AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    port,
    hits: () => hits,
    close: () => new Promise((resolve) => srv.close(() => resolve())),
  };
}

describe('outbound policy', () => {
  it('does not follow a redirect: a 307 would re-send the body and key elsewhere', async () => {
    const redirecting = await scriptedServer((res) =>
      res.writeHead(307, { location: `${server.baseUrl}/embeddings` }).end(),
    );
    try {
      const err = await failureOf(embedder({ baseUrl: redirecting.baseUrl }).embed(['r']));
      expect(err.code).toBe('VECTORIZING_FAILED');
      expect(err.permanent).toBe(true);
      expect(err.message).toMatch(/HTTP 307 \(a redirect\), which is not followed/);
      expect(err.message).not.toContain(server.baseUrl);
      expect(redirecting.hits()).toBe(1);
      expect(server.requests).toHaveLength(0);
    } finally {
      await redirecting.close();
    }
  });

  it.each([
    ['an IPv4 loopback literal', (port: number) => `http://127.0.0.1:${port}/v1`],
    ['a name that resolves to loopback', (port: number) => `http://localhost:${port}/v1`],
    ['an IPv4-mapped IPv6 literal', (port: number) => `http://[::ffff:127.0.0.1]:${port}/v1`],
    ['the IPv6 loopback', (port: number) => `http://[::1]:${port}/v1`],
    ['a link-local (metadata) address', () => 'http://169.254.169.254/latest'],
  ])('refuses %s when private addresses are not allowed, before sending anything', async (_name, urlFor) => {
    const port = Number(new URL(server.baseUrl).port);
    const err = await failureOf(embedder({ baseUrl: urlFor(port), outbound: REFUSE_PRIVATE }).embed(['p']));
    expect(err.code).toBe('VECTORIZING_FAILED');
    expect(err.permanent).toBe(true);
    expect(err.message).toMatch(/private, loopback or link-local/);
    expect(err.message).not.toMatch(/127\.0\.0\.1|localhost|::1|169\.254/);
    expect(server.requests).toHaveLength(0);
  });

  it('reaches a private address only when allowed: SLUICE_OUTBOUND_ALLOW_PRIVATE, never by profile', async () => {
    const onlyLocalPorts = {
      SLUICE_OBJECT_STORE: 'local',
      SLUICE_VECTOR_STORE: 'postgres',
      SLUICE_KEYWORD_INDEX: 'postgres',
      SLUICE_EMBEDDER: 'local',
    };
    expect(loadConfig({}).outbound).toEqual({ allowPrivate: false, allowHosts: [] });
    expect(loadConfig({ ...onlyLocalPorts, SLUICE_PROFILE: 'production' }).outbound).toEqual({
      allowPrivate: false,
      allowHosts: [],
    });
    const allowed = loadConfig({
      ...onlyLocalPorts,
      SLUICE_PROFILE: 'production',
      SLUICE_OUTBOUND_ALLOW_PRIVATE: 'true',
    }).outbound;
    expect(allowed).toEqual({ allowPrivate: true, allowHosts: [] });
    const port = Number(new URL(server.baseUrl).port);
    expect(await embedder({ baseUrl: `http://localhost:${port}/v1`, outbound: allowed }).embed(['ok'])).toEqual([
      fakeVector('ok', DIMENSION),
    ]);
  });

  it('refuses a base URL that is not http(s) or not a URL at all, permanently', async () => {
    for (const [baseUrl, why] of [
      ['ftp://example.com/v1', /only http and https URLs are allowed/],
      ['not a url', /the URL is not valid/],
    ] as const) {
      const err = await failureOf(embedder({ baseUrl, maxRetries: 3 }).embed(['u']));
      expect(err.code).toBe('VECTORIZING_FAILED');
      expect(err.permanent).toBe(true);
      expect(err.message).toMatch(why);
    }
  });

  it("keeps a provider's error body, secrets and internal hosts out of the message", async () => {
    const leaky = await scriptedServer((res) =>
      res.writeHead(500, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          error: {
            message:
              'upstream http://admin:hunter2@vault.internal.corp:8200/v1 said token sk-live-9f8e7d6c5b4a3f2e1d0c failed',
          },
        }),
      ),
    );
    try {
      const err = await failureOf(embedder({ baseUrl: leaky.baseUrl, maxRetries: 0 }).embed(['s']));
      expect(err.code).toBe('VECTORIZING_FAILED');
      expect(err.message).toMatch(/HTTP 500/);
      expect(err.message).not.toMatch(/hunter2|vault\.internal|sk-live|upstream/);
      expect(String(err.cause)).toContain('vault.internal.corp');
    } finally {
      await leaky.close();
    }
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
