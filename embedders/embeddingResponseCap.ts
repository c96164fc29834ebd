/**
 * How much of an embedding provider's answer sluice reads (outbound/cappedBody.ts).
 */

/** Bytes one float may take in a JSON answer: `-0.012345678901234567,` is 22; 32 leaves room for spacing. */
const BYTES_PER_NUMBER = 32;
/** Per embedding (`{"object":"embedding","index":…,"embedding":[…]}`, whitespace) and per answer (usage, model name). */
const BYTES_PER_ITEM = 1024;
const BYTES_SLACK = 64 * 1024;
/** Whatever the batch, no answer is read past this. */
export const MAX_EMBEDDING_RESPONSE_BYTES = 256 * 1024 * 1024;
/** An error answer is only quoted in the log: its first bytes are enough. */
export const ERROR_BODY_BYTES = 16 * 1024;

/**
 * The largest answer a well-behaved provider can give for `texts` vectors of `dimension` floats,
 * generously: anything larger is not an answer to this request, and reading it would let the
 * provider choose how much memory the worker or the API spends.
 */
export function embeddingResponseCap(texts: number, dimension: number): number {
  return Math.min(MAX_EMBEDDING_RESPONSE_BYTES, texts * (dimension * BYTES_PER_NUMBER + BYTES_PER_ITEM) + BYTES_SLACK);
}
