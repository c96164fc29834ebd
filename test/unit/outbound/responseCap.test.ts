import { SluiceError } from '../../../contracts/sluiceError';
import { probeEmbedding } from '../../../embedders/embeddingProbe';
import { embeddingResponseCap } from '../../../embedders/embeddingResponseCap';
import { createOpenAiEmbedder } from '../../../embedders/openAiEmbedder';
import { readCappedText, ResponseTooLargeError } from '../../../outbound/cappedBody';
import { outboundFetch } from '../../../outbound/outboundHttp';
import { startFloodServer, type FloodServer } from '../../../testkit/fakes/floodServer';

// An answer of hundreds of MB from a tenant's endpoint is read only up to a
// cap sized from the request, then refused with a classified error. Measured on the server side
// (how many bytes the client pulled) and on this process's RSS, never on time.

const MB = 1024 * 1024;
const FLOOD_BYTES = 400 * MB;
/** Socket buffers on both sides let the server push a few MB past what the client read. */
const PULLED_AT_MOST = 24 * MB;
const RSS_GROWTH_AT_MOST = 96 * MB;
const LOOPBACK = { allowPrivate: true };
const DIMENSION = 8;

let flood: FloodServer;
afterEach(() => flood.close());

const embedder = (url: string) =>
  createOpenAiEmbedder({
    baseUrl: url,
    apiKey: 'sk-test-flood',
    model: 'flood',
    dimension: DIMENSION,
    maxRetries: 0,
    outbound: LOOPBACK,
  });

async function failureOf(promise: Promise<unknown>): Promise<SluiceError> {
  const error: unknown = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SluiceError);
  return error as SluiceError;
}

describe('capped response bodies', () => {
  it('stops reading a 400 MB embeddings answer at its cap and fails permanently with VECTORIZING_FAILED', async () => {
    flood = await startFloodServer({ totalBytes: FLOOD_BYTES });
    const before = process.memoryUsage().rss;
    const error = await failureOf(embedder(flood.url).embed(['one text']));
    expect(error.code).toBe('VECTORIZING_FAILED');
    expect(error.permanent).toBe(true);
    expect(error.message).toContain(`larger than the ${embeddingResponseCap(1, DIMENSION)} bytes`);
    expect(flood.sentBytes()).toBeLessThan(PULLED_AT_MOST);
    expect(process.memoryUsage().rss - before).toBeLessThan(RSS_GROWTH_AT_MOST);
  });

  it('keeps four concurrent floods within the same memory', async () => {
    flood = await startFloodServer({ totalBytes: FLOOD_BYTES });
    const before = process.memoryUsage().rss;
    const errors = await Promise.all(Array.from({ length: 4 }, () => failureOf(embedder(flood.url).embed(['x']))));
    expect(errors.map((e) => e.code)).toEqual(Array(4).fill('VECTORIZING_FAILED'));
    expect(flood.requests()).toBe(4);
    expect(flood.sentBytes()).toBeLessThan(4 * PULLED_AT_MOST);
    expect(process.memoryUsage().rss - before).toBeLessThan(RSS_GROWTH_AT_MOST);
  });

  it('refuses a declared Content-Length above the cap before reading the body', async () => {
    flood = await startFloodServer({ totalBytes: FLOOD_BYTES, declareLength: true });
    const response = await outboundFetch(LOOPBACK, flood.url, { method: 'GET', headers: {} });
    const error: unknown = await readCappedText(response, 1 * MB).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as ResponseTooLargeError).readBytes).toBe(0);
    expect(flood.sentBytes()).toBeLessThan(PULLED_AT_MOST);
  });

  it('quotes only the first bytes of a huge error answer, and the status still decides (5xx: retryable)', async () => {
    flood = await startFloodServer({ totalBytes: FLOOD_BYTES, status: 503 });
    const error = await failureOf(embedder(flood.url).embed(['x']));
    expect(error.code).toBe('VECTORIZING_FAILED');
    expect(error.permanent).toBe(false);
    expect(error.message).toContain('HTTP 503');
    expect(flood.sentBytes()).toBeLessThan(PULLED_AT_MOST);
  });

  it('the embedding test (probe) of a flooding endpoint answers not-ok instead of reading it all', async () => {
    flood = await startFloodServer({ totalBytes: FLOOD_BYTES });
    const result = await probeEmbedding(
      { provider: 'openai', baseUrl: flood.url, apiKey: null, model: 'flood', dimension: DIMENSION },
      LOOPBACK,
    );
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/larger than the \d+ bytes allowed/);
    expect(flood.sentBytes()).toBeLessThan(PULLED_AT_MOST);
  });

  it('sizes the cap from the request, under an absolute ceiling', () => {
    expect(embeddingResponseCap(64, 1536)).toBeGreaterThan(64 * 1536 * 22);
    expect(embeddingResponseCap(64, 1536)).toBeLessThan(8 * MB);
    expect(embeddingResponseCap(2048, 4096)).toBe(256 * MB);
  });

  it('returns the whole body under the cap, and truncates on request', async () => {
    flood = await startFloodServer({ totalBytes: 100_000 });
    const whole = await readCappedText(await outboundFetch(LOOPBACK, flood.url, { method: 'GET', headers: {} }), MB);
    expect(whole).toMatchObject({ bytes: 100_000, truncated: false });
    expect(whole.text).toHaveLength(100_000);
    const cut = await readCappedText(await outboundFetch(LOOPBACK, flood.url, { method: 'GET', headers: {} }), 1000, {
      onOverflow: 'truncate',
    });
    expect(cut).toMatchObject({ bytes: 1000, truncated: true });
    expect(cut.text).toHaveLength(1000);
  });
});
