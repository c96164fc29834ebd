import { setTimeout as sleep } from 'node:timers/promises';
import { permanentError, transientError } from '../contracts/sluiceError';
import { readCappedText, ResponseTooLargeError } from '../outbound/cappedBody';
import { fetchErrorCode, outboundFetch, OutboundRefusedError, type OutboundPolicy } from '../outbound/outboundHttp';
import type { Embedder } from './embedder';
import { embeddingResponseCap, ERROR_BODY_BYTES } from './embeddingResponseCap';
import {
  backoffMs,
  describeFetchError,
  isErrorLike,
  isRetryableStatus,
  providerMessage,
  redactor,
  retryAfterMs,
  statusSummary,
} from './providerHttp';

export interface OpenAiEmbedderOptions {
  /** e.g. `https://api.openai.com/v1`; requests go to `${baseUrl}/embeddings`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …`; null for local servers that need none. Never logged. */
  apiKey: string | null;
  model: string;
  dimension: number;
  /** Texts per request (default 64). */
  batchSize?: number;
  /** Requests in flight at most (default 4). */
  concurrency?: number;
  /** Per request, including reading the body (default 60 s). */
  timeoutMs?: number;
  /** Retries after the first attempt on network errors, timeouts, 408, 429 and 5xx (default 5). */
  maxRetries?: number;
  /** Send `dimensions` (models that can shorten their vectors). Default: only for text-embedding-3*. */
  sendDimensions?: boolean;
  /** Which addresses the base URL may reach (config.outbound); redirects are never followed. */
  outbound: OutboundPolicy;
}

const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 20_000;
/** A provider asking for a longer pause than this gets a transient failure: Temporal retries the activity later. */
const MAX_RETRY_AFTER_MS = 60_000;

/**
 * A failure worth another attempt; becomes a transient VECTORIZING_FAILED when attempts run out.
 * `message` is safe for tenants; `detail` (the provider's words, a host) is only logged.
 */
class RetryableFailure extends Error {
  constructor(
    message: string,
    readonly detail: string,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

/**
 * An Embedder for any OpenAI-compatible `/embeddings` endpoint (docs/design.md §6): batches of
 * `batchSize` texts, at most `concurrency` requests in flight, a timeout per request, retries with
 * exponential back-off and jitter that honour Retry-After, and results put back in input order.
 *
 * Failures are classified for the VECTORIZING stage: vectors of the wrong length →
 * EMBEDDING_DIMENSION_UNSUPPORTED (permanent); a refused request (4xx such as 400/401/403/404), a
 * redirect, an address the outbound policy refuses or an answer larger than its cap
 * (embedders/embeddingResponseCap.ts) → VECTORIZING_FAILED (permanent); retries
 * exhausted → VECTORIZING_FAILED (transient). Messages carry the status and a hint, never the
 * provider's body or a host: those go, as the error's cause, to the worker log
 * (activities/toApplicationFailure.ts). The API key appears in neither: it is only put in a header,
 * and the details are redacted in case the provider echoes it back.
 */
export function createOpenAiEmbedder(options: OpenAiEmbedderOptions): Embedder {
  const { model, dimension, apiKey } = options;
  const batchSize = options.batchSize ?? 64;
  const concurrency = options.concurrency ?? 4;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const maxRetries = options.maxRetries ?? 5;
  const sendDimensions = options.sendDimensions ?? /^text-embedding-3/.test(model);
  for (const [name, value, min] of [
    ['dimension', dimension, 1],
    ['batchSize', batchSize, 1],
    ['concurrency', concurrency, 1],
    ['timeoutMs', timeoutMs, 1],
    ['maxRetries', maxRetries, 0],
  ] as const) {
    if (!Number.isInteger(value) || value < min)
      throw new Error(`OpenAI embedder: ${name} must be an integer ≥ ${min}, got ${value}`);
  }
  const url = `${options.baseUrl.replace(/\/+$/, '')}/embeddings`;
  const { outbound } = options;
  const redact = redactor(apiKey);
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (apiKey !== null) headers.authorization = `Bearer ${apiKey}`;

  async function attempt(texts: string[], stop: AbortSignal): Promise<number[][]> {
    const body = JSON.stringify({
      model,
      input: texts,
      encoding_format: 'float',
      ...(sendDimensions ? { dimensions: dimension } : {}),
    });
    let status: number;
    let text: string;
    let responseHeaders: { get(name: string): string | null };
    // The deadline is a controller this call holds, not AbortSignal.timeout(): a combined signal
    // holds its sources weakly and the timeout's timer holds its signal weakly too, so an inline
    // timeout signal can be collected before it fires, and the request then hangs (seen under load).
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError')),
      timeoutMs,
    );
    try {
      const response = await outboundFetch(outbound, url, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.any([stop, deadline.signal]),
      });
      status = response.status;
      responseHeaders = response.headers;
      text =
        status === 200
          ? (await readCappedText(response, embeddingResponseCap(texts.length, dimension))).text
          : (await readCappedText(response, ERROR_BODY_BYTES, { onOverflow: 'truncate' })).text;
    } catch (err) {
      if (stop.aborted) throw err;
      if (err instanceof ResponseTooLargeError) {
        // Permanent: the cap is several times what any provider sends for this batch, so a larger
        // answer is a wrong endpoint or a hostile one, and asking again would only read more of it.
        throw permanentError(
          'VECTORIZING_FAILED',
          `the embedding provider's answer for model ${model} is larger than the ${err.capBytes} bytes allowed for ${texts.length} vectors of ${dimension} numbers`,
          new Error(`stopped reading after ${err.readBytes} bytes`),
        );
      }
      if (err instanceof OutboundRefusedError) {
        throw permanentError(
          'VECTORIZING_FAILED',
          `the embedding request for model ${model} was refused: ${err.message}`,
          new Error(redact(err.detail)),
        );
      }
      if (isErrorLike(err) && err.name === 'TimeoutError')
        throw new RetryableFailure(`no answer within ${timeoutMs} ms`, `timeout after ${timeoutMs} ms`);
      throw new RetryableFailure(`network error (${fetchErrorCode(err)})`, redact(describeFetchError(err)));
    } finally {
      clearTimeout(timer);
    }
    if (status !== 200) {
      const detail = redact(`HTTP ${status} from the embedding provider: ${providerMessage(text)}`);
      if (isRetryableStatus(status))
        throw new RetryableFailure(statusSummary(status), detail, retryAfterMs(responseHeaders));
      throw permanentError(
        'VECTORIZING_FAILED',
        `embedding provider refused the request for model ${model}: ${statusSummary(status)}`,
        new Error(detail),
      );
    }
    return parseEmbeddings(text, texts.length);
  }

  function parseEmbeddings(text: string, expected: number): number[][] {
    let data: unknown;
    try {
      data = (JSON.parse(text) as { data?: unknown } | null)?.data;
    } catch {
      throw new RetryableFailure('the response is not JSON', redact(`not JSON: ${providerMessage(text)}`));
    }
    if (!Array.isArray(data) || data.length !== expected) {
      const got = Array.isArray(data) ? data.length : 'none';
      throw new RetryableFailure(
        `expected ${expected} embeddings, got ${got}`,
        `expected ${expected} embeddings, got ${got}`,
      );
    }
    const vectors: (number[] | undefined)[] = new Array<number[] | undefined>(expected).fill(undefined);
    data.forEach((item: unknown, position) => {
      const { index = position, embedding } = (item ?? {}) as { index?: unknown; embedding?: unknown };
      if (!Array.isArray(embedding) || !embedding.every((v) => typeof v === 'number' && Number.isFinite(v))) {
        throw new RetryableFailure(
          'an embedding is not an array of numbers',
          `embedding at position ${position} is not an array of finite numbers`,
        );
      }
      if (embedding.length !== dimension) {
        throw permanentError(
          'EMBEDDING_DIMENSION_UNSUPPORTED',
          `model ${model} returned ${embedding.length}-dimensional vectors, but the embedding config says ${dimension}`,
        );
      }
      if (
        typeof index !== 'number' ||
        !Number.isInteger(index) ||
        index < 0 ||
        index >= expected ||
        vectors[index] !== undefined
      ) {
        // The index is the provider's value: quoted in the log only.
        throw new RetryableFailure(
          'an invalid or repeated embedding index',
          redact(`embedding index ${JSON.stringify(index)?.slice(0, 100)}`),
        );
      }
      vectors[index] = embedding as number[];
    });
    return vectors as number[][];
  }

  async function embedBatch(texts: string[], stop: AbortSignal): Promise<number[][]> {
    for (let attemptNo = 0; ; attemptNo++) {
      try {
        return await attempt(texts, stop);
      } catch (err) {
        if (!(err instanceof RetryableFailure)) throw err;
        const attempts = attemptNo + 1;
        if (err.retryAfterMs !== null && err.retryAfterMs > MAX_RETRY_AFTER_MS) {
          // Too long to sleep through inside the attempt: the activity's next attempt waits it out.
          throw transientError(
            'VECTORIZING_FAILED',
            `embedding provider asked to wait ${Math.ceil(err.retryAfterMs / 1000)} s (${err.message})`,
            new Error(err.detail),
            err.retryAfterMs,
          );
        }
        if (attemptNo >= maxRetries) {
          throw transientError(
            'VECTORIZING_FAILED',
            `embedding request for model ${model} failed after ${attempts} attempts: ${err.message}`,
            new Error(err.detail),
          );
        }
        const delay =
          err.retryAfterMs !== null
            ? err.retryAfterMs + Math.round(Math.random() * 0.1 * err.retryAfterMs)
            : backoffMs(attemptNo, BACKOFF_BASE_MS, BACKOFF_CAP_MS);
        await sleep(delay, undefined, { signal: stop });
      }
    }
  }

  return {
    model,
    dimension,
    async embed(texts) {
      const batches: string[][] = [];
      for (let i = 0; i < texts.length; i += batchSize) batches.push(texts.slice(i, i + batchSize));
      const results: number[][][] = new Array<number[][]>(batches.length);
      // The first failure stops the others: in-flight requests and back-off sleeps are aborted.
      const stop = new AbortController();
      let failure: { error: unknown } | null = null;
      let next = 0;
      const worker = async () => {
        while (failure === null && next < batches.length) {
          const index = next++;
          try {
            results[index] = await embedBatch(batches[index] as string[], stop.signal);
          } catch (error) {
            if (failure === null) {
              failure = { error };
              stop.abort();
            }
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, batches.length) }, worker));
      if (failure !== null) throw (failure as { error: unknown }).error;
      return results.flat();
    },
  };
}
