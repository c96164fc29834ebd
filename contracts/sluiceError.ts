import type { FailureCode } from './failureCodes';

/**
 * A classified error raised by domain code (parsers, chunker, stores). Activities turn it into
 * an ApplicationFailure whose `type` is the code; `permanent` decides `nonRetryable`.
 */
export class SluiceError extends Error {
  override readonly name = 'SluiceError';

  constructor(
    readonly code: FailureCode,
    message: string,
    readonly permanent: boolean,
    options?: { cause?: unknown; retryAfterMs?: number },
  ) {
    super(message, options);
    this.retryAfterMs = options?.retryAfterMs ?? null;
  }

  /** How long the dependency asked to be left alone (a provider's Retry-After); null: the retry policy's back-off. */
  readonly retryAfterMs: number | null;
}

export function permanentError(code: FailureCode, message: string, cause?: unknown): SluiceError {
  return new SluiceError(code, message, true, { cause });
}

export function transientError(
  code: FailureCode,
  message: string,
  cause?: unknown,
  retryAfterMs?: number,
): SluiceError {
  return new SluiceError(code, message, false, { cause, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });
}
