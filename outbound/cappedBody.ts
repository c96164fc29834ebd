/**
 * Every response body sluice reads from a server someone else runs goes through here (docs/design.md
 * §6, "every response read from outside is size-capped"): the body is read as a stream and the
 * read stops as soon as it passes the cap, so a server that answers with hundreds of megabytes
 * costs at most the cap in memory, never the whole answer. A Content-Length above the cap is
 * refused before a byte is read.
 */

/** A body that passed its cap. `readBytes` is what was read before stopping (at most cap + one chunk). */
export class ResponseTooLargeError extends Error {
  override readonly name = 'ResponseTooLargeError';

  constructor(
    readonly capBytes: number,
    readonly readBytes: number,
  ) {
    super(`the response is larger than the ${capBytes} bytes allowed for it`);
  }
}

/** What fetch (undici's or Node's global one) resolves with; only the parts read here. */
export interface StreamedResponse {
  headers: { get(name: string): string | null };
  body: ReadableStream<Uint8Array> | null;
}

export interface CappedText {
  text: string;
  /** Bytes read from the body (the whole body, unless `truncated`). */
  bytes: number;
  /** True when `onOverflow: 'truncate'` cut the body at the cap. */
  truncated: boolean;
}

export interface CapOptions {
  /** 'fail' (default): throw ResponseTooLargeError. 'truncate': keep the first capBytes, e.g. for an error body. */
  onOverflow?: 'fail' | 'truncate';
}

function declaredLength(response: StreamedResponse): number | null {
  const value = response.headers.get('content-length');
  return value !== null && /^\d+$/.test(value.trim()) ? Number(value) : null;
}

/** Reads the body as UTF-8 text, at most `capBytes` of it; the rest of the stream is cancelled, not read. */
export async function readCappedText(
  response: StreamedResponse,
  capBytes: number,
  options: CapOptions = {},
): Promise<CappedText> {
  const read = await readCappedBytes(response, capBytes, options);
  return { text: read.body.toString('utf8'), bytes: read.bytes, truncated: read.truncated };
}

/** The same cap for a binary body (an image): the bytes, at most `capBytes` of them. */
export async function readCappedBytes(
  response: StreamedResponse,
  capBytes: number,
  options: CapOptions = {},
): Promise<{ body: Buffer; bytes: number; truncated: boolean }> {
  const truncate = options.onOverflow === 'truncate';
  const body = response.body;
  if (body === null) return { body: Buffer.alloc(0), bytes: 0, truncated: false };
  const declared = declaredLength(response);
  if (declared !== null && declared > capBytes && !truncate) {
    await body.cancel().catch(() => undefined);
    throw new ResponseTooLargeError(capBytes, 0);
  }
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (bytes + value.byteLength > capBytes) {
        if (!truncate) throw new ResponseTooLargeError(capBytes, bytes + value.byteLength);
        parts.push(value.subarray(0, capBytes - bytes));
        bytes = capBytes;
        return { body: Buffer.concat(parts), bytes, truncated: true };
      }
      parts.push(value);
      bytes += value.byteLength;
    }
  } finally {
    // Stops the transfer (and frees the connection) when we stop early; a no-op after the end.
    await reader.cancel().catch(() => undefined);
  }
  return { body: Buffer.concat(parts), bytes, truncated: false };
}
