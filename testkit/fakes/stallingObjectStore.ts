import { Readable } from 'node:stream';
import type { ObjectStore } from '../../stores/ports';

export interface StallingObjectStore {
  objects: ObjectStore;
  /** Resolves when the stalled read has sent its first bytes and stopped. */
  stalled: Promise<void>;
  /** Lets the stalled read go on; with an error, it fails instead. */
  release(error?: Error): void;
  /** Resolves once the stalled read has been consumed to its end or failed. */
  drained: Promise<void>;
}

/**
 * The store, except that the first read of `key` stalls after its first `afterBytes` bytes until
 * release(): a copy of a large object that outlasts its attempt's timeout, caught mid-way (past
 * the type detection's head, inside the copy). Every other call passes through.
 */
export function stallFirstRead(inner: ObjectStore, key: string, afterBytes = 16 * 1024): StallingObjectStore {
  let markStalled = () => {};
  const stalled = new Promise<void>((resolve) => {
    markStalled = resolve;
  });
  let release: (error?: Error) => void = () => {};
  const gate = new Promise<Error | undefined>((resolve) => {
    release = resolve;
  });
  let markDrained = () => {};
  const drained = new Promise<void>((resolve) => {
    markDrained = resolve;
  });
  let reads = 0;
  const objects: ObjectStore = Object.create(inner) as ObjectStore;
  objects.getStream = async (asked: string) => {
    const body = await inner.getStream(asked);
    if (asked !== key || reads++ > 0) return body;
    async function* slowly() {
      let sent = 0;
      let waited = false;
      try {
        for await (const chunk of body) {
          const bytes = chunk as Buffer;
          for (let at = 0; at < bytes.length; at += 4096) {
            if (sent >= afterBytes && !waited) {
              waited = true;
              markStalled();
              const error = await gate;
              if (error) throw error;
            }
            const slice = bytes.subarray(at, at + 4096);
            sent += slice.length;
            yield slice;
          }
        }
      } finally {
        body.destroy();
        markDrained();
      }
    }
    return Readable.from(slowly(), { objectMode: false });
  };
  return { objects, stalled, release, drained };
}
