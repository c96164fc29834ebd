import type { Hash } from 'node:crypto';
import type { Readable } from 'node:stream';

/** What one more file may still take: the smaller of the file size limit and the quota left. */
export interface UploadBudget {
  maxBytes: number;
  limitedBy: 'file' | 'quota';
}

export class LimitExceeded extends Error {
  constructor(readonly budget: UploadBudget) {
    super('upload limit exceeded');
  }
}

/** The body broke off (client went away, malformed multipart, a source read failed): nothing was stored. */
export class UploadInterrupted extends Error {
  override readonly name = 'UploadInterrupted';
}

/**
 * Reads until `size` bytes (or the end) are buffered, without switching the stream to flowing
 * mode. Returns every chunk read, which may overshoot `size`; the caller sends them on.
 */
export async function readHead(
  stream: Readable,
  size: number,
): Promise<{ chunks: Buffer[]; head: Buffer; ended: boolean }> {
  const chunks: Buffer[] = [];
  let length = 0;
  for (;;) {
    if (length >= size) break;
    const chunk = stream.read() as Buffer | null;
    if (chunk !== null) {
      chunks.push(chunk);
      length += chunk.length;
      continue;
    }
    if (stream.readableEnded) break;
    if (stream.destroyed) throw stream.errored ?? new Error('upload stream closed early');
    await new Promise<void>((resolve, reject) => {
      const settle = (error?: unknown) => {
        stream.off('readable', onReadable);
        stream.off('end', onReadable);
        stream.off('close', onReadable);
        stream.off('error', onError);
        if (error) reject(error instanceof Error ? error : new Error(String(error)));
        else resolve();
      };
      const onReadable = () => settle();
      const onError = (error: unknown) => settle(error);
      stream.on('readable', onReadable);
      stream.on('end', onReadable);
      stream.on('close', onReadable);
      stream.on('error', onError);
    });
  }
  const all = Buffer.concat(chunks);
  return { chunks: [all], head: all.subarray(0, size), ended: stream.readableEnded };
}

/** Streams head + rest, hashing and counting, and fails the moment the budget is crossed. */
export async function* meteredBody(
  first: Buffer[],
  rest: Readable | null,
  budget: UploadBudget,
  meter: { hash: Hash; bytes: number },
) {
  const take = (chunk: Buffer) => {
    meter.bytes += chunk.length;
    if (meter.bytes > budget.maxBytes) throw new LimitExceeded(budget);
    meter.hash.update(chunk);
    return chunk;
  };
  for (const chunk of first) yield take(chunk);
  if (!rest) return;
  const chunks = rest[Symbol.asyncIterator]();
  let finished = false;
  try {
    for (;;) {
      let next: IteratorResult<unknown>;
      try {
        next = await chunks.next();
      } catch (error) {
        finished = true;
        throw new UploadInterrupted(error instanceof Error ? error.message : String(error));
      }
      if (next.done) {
        finished = true;
        return;
      }
      yield take(next.value as Buffer);
    }
  } finally {
    // Stopped early (over the limit, or the store failed): the part is abandoned unread.
    if (!finished) await chunks.return?.();
  }
}
