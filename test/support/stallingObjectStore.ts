import { Readable } from 'node:stream';
import type { ObjectStore } from '../../stores/ports';

export interface StallingObjectStore {
  objects: ObjectStore;
  /** Resolves when the stalled read has been asked for. */
  stalled: Promise<void>;
  /** Lets the stalled read go on; with an error, it fails instead. */
  release(error?: Error): void;
  /** Resolves once the stalled read has been consumed to its end or failed. */
  drained: Promise<void>;
}

/**
 * The store, except that the first read of `key` stalls before its first byte until release():
 * a copy of a large object that outlasts its attempt's timeout. Every other call passes through.
 */
export function stallFirstRead(inner: ObjectStore, key: string): StallingObjectStore {
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
    markStalled();
    async function* later() {
      try {
        const error = await gate;
        if (error) throw error;
        for await (const chunk of body) yield chunk as Buffer;
      } finally {
        body.destroy();
        markDrained();
      }
    }
    return Readable.from(later(), { objectMode: false });
  };
  return { objects, stalled, release, drained };
}
