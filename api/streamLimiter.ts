import { ApiError } from './errors';

/**
 * Caps the open event streams per API key in this process. Each stream polls Postgres and a
 * Temporal query for up to half an hour, so one key must not be able to open them without end.
 */
export interface StreamLimiter {
  /** Takes a slot for the key, or throws 429; call the returned function once, when the stream ends. */
  acquire(keyId: string): () => void;
  /** Streams open for the key now. */
  open(keyId: string): number;
}

export function createStreamLimiter(maxPerKey: number): StreamLimiter {
  const open = new Map<string, number>();
  return {
    acquire(keyId) {
      const current = open.get(keyId) ?? 0;
      if (current >= maxPerKey) {
        throw new ApiError(
          429,
          'TOO_MANY_STREAMS',
          `this API key already has ${current} open event streams (the limit is ${maxPerKey}); close one first`,
          {
            'retry-after': '5',
          },
        );
      }
      open.set(keyId, current + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (open.get(keyId) ?? 1) - 1;
        if (left > 0) open.set(keyId, left);
        else open.delete(keyId);
      };
    },
    open: (keyId) => open.get(keyId) ?? 0,
  };
}
