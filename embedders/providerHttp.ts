/**
 * Small HTTP helpers for calling model providers: retry timing, and failure text in two parts —
 * a summary safe for tenants (status, error code) and details for the worker log only (the
 * provider's own words, which may quote anything, hosts and keys included).
 */

/** Retryable HTTP statuses: request timeout, rate limit, and server-side failures. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * How long the provider asked us to wait, in ms, or null if it did not say. Understands
 * `retry-after-ms` (OpenAI), and `Retry-After` as delta-seconds or as an HTTP date.
 */
export function retryAfterMs(headers: { get(name: string): string | null }, now: number = Date.now()): number | null {
  const numeric = /^\s*\d+(\.\d+)?\s*$/;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && numeric.test(ms)) return Number(ms);
  const value = headers.get('retry-after');
  if (value === null) return null;
  if (numeric.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** Exponential back-off with "equal jitter": half the step is fixed, half is random. */
export function backoffMs(attempt: number, baseMs: number, capMs: number, random: () => number = Math.random): number {
  const step = Math.min(capMs, baseMs * 2 ** attempt);
  return Math.round(step / 2 + random() * (step / 2));
}

const STATUS_HINTS: Record<number, string> = {
  400: 'bad request',
  401: 'unauthorized: check the API key',
  403: 'forbidden: check the API key and its permissions',
  404: 'not found: check the base URL and the model',
  408: 'request timeout',
  413: 'request too large: lower the batch size',
  422: 'unprocessable request',
  429: 'rate limited',
  500: 'provider error',
  502: 'bad gateway',
  503: 'provider unavailable',
  504: 'gateway timeout',
};

/** `HTTP 401 (unauthorized: check the API key)`: what a tenant may read about a refused request. */
export function statusSummary(status: number): string {
  const hint = STATUS_HINTS[status];
  return hint ? `HTTP ${status} (${hint})` : `HTTP ${status}`;
}

/** The provider's own explanation from an error body (OpenAI's `{error: {message}}` and common variants): log only. */
export function providerMessage(body: string): string {
  let message: unknown = null;
  try {
    const parsed = JSON.parse(body) as unknown;
    if (parsed && typeof parsed === 'object') {
      const record = parsed as Record<string, unknown>;
      const error = record.error;
      message =
        error && typeof error === 'object'
          ? (error as Record<string, unknown>).message
          : (error ?? record.message ?? record.detail);
    }
  } catch {
    // not JSON: use the text itself
  }
  const text = typeof message === 'string' ? message : body;
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > 300 ? `${oneLine.slice(0, 299)}…` : oneLine || '(empty body)';
}

/** Describes a fetch failure without its stack, for the log: `fetch failed (connect ECONNREFUSED 10.0.0.5:443)`. */
export function describeFetchError(err: unknown): string {
  // Duck-typed: errors from Node's fetch may come from another realm (e.g. under Jest).
  if (!isErrorLike(err)) return String(err);
  const cause = err.cause;
  const detail =
    cause && typeof cause === 'object'
      ? ((cause as { message?: unknown }).message ?? (cause as { code?: unknown }).code)
      : undefined;
  return typeof detail === 'string' && detail !== '' ? `${err.message} (${detail})` : err.message;
}

export function isErrorLike(value: unknown): value is { name: string; message: string; cause?: unknown } {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { message?: unknown }).message === 'string' &&
    typeof (value as { name?: unknown }).name === 'string'
  );
}

/** Returns a function that blanks every occurrence of the secret (a key a provider echoed back). */
export function redactor(secret: string | null): (text: string) => string {
  if (secret === null || secret.length < 4) return (text) => text;
  return (text) => text.split(secret).join('[redacted]');
}
