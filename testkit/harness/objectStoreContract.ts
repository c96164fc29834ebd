import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { ObjectNotFoundError, type ObjectStore, type PartialWrite } from '../../stores/ports';

/**
 * The behaviour every ObjectStore adapter must share (docs/design.md §6: one contract suite, run
 * against every adapter that can be started). Each case works under its own random key base, so
 * adapters may share a root or bucket with other runs.
 */
export function describeObjectStoreContract(name: string, make: () => Promise<ObjectStore>): void {
  describe(`object store contract: ${name}`, () => {
    let store: ObjectStore;
    let base: string;

    beforeAll(async () => {
      store = await make();
    });
    beforeEach(() => {
      base = `contract/${randomUUID()}`;
    });

    it('streams a multi-megabyte body in and out unchanged, and reports its size', async () => {
      // Over 12 MiB in odd-sized chunks: larger than one multipart part, and no chunk or part
      // boundary lines up, so a lost or duplicated chunk shows in the size or the hash.
      const chunkSize = 65_537;
      const chunks = 192;
      const written = createHash('sha256');
      async function* body() {
        for (let i = 0; i < chunks; i++) {
          const chunk = randomBytes(chunkSize);
          written.update(chunk);
          yield chunk;
        }
      }
      const key = `${base}/big/source`;
      const { sizeBytes } = await store.putStream(key, Readable.from(body()));
      expect(sizeBytes).toBe(chunkSize * chunks);

      const read = await readAll(await store.getStream(key));
      expect(read.bytes).toBe(chunkSize * chunks);
      expect(read.sha256).toBe(written.digest('hex'));
    });

    it('stores an empty stream as an empty object', async () => {
      const key = `${base}/empty`;
      expect(await store.putStream(key, Readable.from([]))).toEqual({ sizeBytes: 0 });
      expect(await store.exists(key)).toBe(true);
      expect(await store.getText(key)).toBe('');
    });

    it('fails putStream when the source fails, leaving no object behind', async () => {
      const key = `${base}/broken`;
      async function* body() {
        // Past one multipart part before failing, so an adapter must abort, not complete.
        for (let i = 0; i < 10; i++) yield randomBytes(1024 * 1024);
        throw new Error('source broke mid-stream');
      }
      await expect(store.putStream(key, Readable.from(body()))).rejects.toThrow(/source broke mid-stream/);
      expect(await store.exists(key)).toBe(false);
    });

    it('round-trips UTF-8 text, including Chinese', async () => {
      const key = `${base}/markdown/task.md`;
      const text = '# 上传指南\n\n向量检索与关键词检索 — café ✓\n';
      await store.putText(key, text);
      expect(await store.getText(key)).toBe(text);
      // The bytes stored are UTF-8, not some other encoding that happens to decode back.
      const raw = await readAll(await store.getStream(key));
      expect(raw.bytes).toBe(Buffer.byteLength(text, 'utf8'));
      expect(raw.sha256).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
    });

    it('tells whether a key exists', async () => {
      await store.putText(`${base}/present`, 'x');
      expect(await store.exists(`${base}/present`)).toBe(true);
      expect(await store.exists(`${base}/absent`)).toBe(false);
    });

    it('throws ObjectNotFoundError for a missing key from getText and getStream', async () => {
      const key = `${base}/missing`;
      await expect(store.getText(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
      await expect(store.getStream(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
      await expect(store.getText(key)).rejects.toMatchObject({ key });
    });

    it('deletes everything under a prefix, and only that, returning the count', async () => {
      const inside = [`${base}/doc/source`, `${base}/doc/markdown/t1.md`, `${base}/doc/tokens/deep/t1.jsonl`];
      // Siblings whose names start with the same characters must survive.
      const outside = [`${base}/doc-2/source`, `${base}/docx`, `${base}/other/doc/source`];
      await Promise.all([...inside, ...outside].map((key) => store.putText(key, key)));

      expect(await store.deletePrefix(`${base}/doc/`)).toBe(inside.length);
      for (const key of inside) expect(await store.exists(key)).toBe(false);
      for (const key of outside) expect(await store.getText(key)).toBe(key);
      // Nothing left to delete: a second call is a harmless no-op.
      expect(await store.deletePrefix(`${base}/doc/`)).toBe(0);
      expect(await store.deletePrefix(`${base}/never-written/`)).toBe(0);
    });

    it('deletes more objects than one list page or delete batch holds (1000)', async () => {
      const count = 1003;
      const keys = Array.from({ length: count }, (_, i) => `${base}/many/${String(i).padStart(4, '0')}`);
      await inBatches(keys, 32, (key) => store.putText(key, 'x'));
      const pages = await collect(store.listOlderThan(`${base}/many/`, inAMinute()));
      expect(pages.map((page) => page.length).sort((a, b) => b - a)[0]).toBeLessThanOrEqual(1000);
      expect(pages.flat().sort()).toEqual(keys);
      expect(await store.deletePrefix(`${base}/many/`)).toBe(count);
      expect(await store.exists(keys[0] ?? '')).toBe(false);
      expect(await store.exists(keys[count - 1] ?? '')).toBe(false);
    });

    it('lists the keys under a prefix written before a time, and only those', async () => {
      const inside = [`${base}/old/source`, `${base}/old/markdown/t1.md`];
      await Promise.all([...inside, `${base}/older/source`].map((key) => store.putText(key, key)));
      expect((await collect(store.listOlderThan(`${base}/old/`, inAMinute()))).flat().sort()).toEqual(inside.sort());
      // Written after the time given: not listed.
      expect((await collect(store.listOlderThan(`${base}/old/`, new Date(Date.now() - 3_600_000)))).flat()).toEqual([]);
      expect((await collect(store.listOlderThan(`${base}/never-written/`, inAMinute()))).flat()).toEqual([]);
    });

    it('lists an unfinished write as partial (not as an object), and aborting it fails the write and keeps nothing', async () => {
      const key = `${base}/unfinished/source`;
      const held = holdWrite(store, key);
      try {
        // Past one multipart part, so an S3 adapter has started its multipart upload.
        const write = await eventuallyPartial(store, key);
        expect(write.key).toBe(key);
        expect(
          (await partialWritesOf(store, `${base}/`, new Date(Date.now() - 3_600_000))).map((w) => w.key),
        ).not.toContain(key);
        expect((await collect(store.listOlderThan(`${base}/unfinished/`, inAMinute()))).flat()).toEqual([]);
        await store.abortPartialWrite(write);
        // Aborting twice (two sweeps) is harmless.
        await store.abortPartialWrite(write);
      } finally {
        held.finish();
      }
      await expect(held.done).rejects.toThrow();
      expect(await store.exists(key)).toBe(false);
      expect((await partialWritesOf(store, `${base}/`, inAMinute())).map((w) => w.key)).not.toContain(key);
    });

    it("lists only the partial writes under the prefix it is given, not other writers' in the same store", async () => {
      const mine = `${base}/mine/source`;
      const theirs = `${base}/theirs/upload.bin`;
      const heldMine = holdWrite(store, mine);
      const heldTheirs = holdWrite(store, theirs);
      try {
        await eventuallyPartial(store, mine);
        await eventuallyPartial(store, theirs);
        expect((await partialWritesOf(store, `${base}/mine/`, inAMinute())).map((w) => w.key)).toEqual([mine]);
        expect((await partialWritesOf(store, `${base}/theirs/`, inAMinute())).map((w) => w.key)).toEqual([theirs]);
      } finally {
        heldMine.finish();
        heldTheirs.finish();
      }
      await expect(heldMine.done).resolves.toEqual({ sizeBytes: HELD_BYTES });
      await expect(heldTheirs.done).resolves.toEqual({ sizeBytes: HELD_BYTES });
    });

    it('leaves a write that is not aborted to finish', async () => {
      const key = `${base}/finished/source`;
      const held = holdWrite(store, key);
      try {
        await eventuallyPartial(store, key);
      } finally {
        held.finish();
      }
      await expect(held.done).resolves.toEqual({ sizeBytes: HELD_BYTES });
      expect(await store.exists(key)).toBe(true);
      expect((await partialWritesOf(store, `${base}/`, inAMinute())).map((w) => w.key)).not.toContain(key);
    });

    it('replaces an object on overwrite, by stream and by text', async () => {
      const key = `${base}/overwritten`;
      await store.putText(key, 'the first, longer version of the object');
      await store.putText(key, 'second');
      expect(await store.getText(key)).toBe('second');
      // A shorter stream over a longer object must not leave the old tail behind.
      const { sizeBytes } = await store.putStream(key, Readable.from([Buffer.from('third')]));
      expect(sizeBytes).toBe(5);
      expect(await store.getText(key)).toBe('third');
    });
  });
}

const inAMinute = () => new Date(Date.now() + 60_000);

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

async function partialWritesOf(store: ObjectStore, prefix: string, before: Date): Promise<PartialWrite[]> {
  return (await collect(store.listPartialWrites(prefix, before))).flat();
}

// 9 MiB before the write is held: more than one 8 MiB multipart part.
const HELD_BYTES = 9 * 1024 * 1024;

/** A putStream whose body stops after HELD_BYTES until finish() ends it. */
function holdWrite(store: ObjectStore, key: string): { done: Promise<{ sizeBytes: number }>; finish(): void } {
  let finish = () => {};
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  async function* body() {
    for (let i = 0; i < HELD_BYTES / (1024 * 1024); i++) yield randomBytes(1024 * 1024);
    await finished;
  }
  const done = store.putStream(key, Readable.from(body()));
  // Observed by the test later; until then a rejection must not count as unhandled.
  done.catch(() => undefined);
  return { done, finish };
}

/** Waits until the write to `key` shows among the partial writes (listed with a time ahead of now). */
async function eventuallyPartial(store: ObjectStore, key: string): Promise<PartialWrite> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const write = (await partialWritesOf(store, key.slice(0, key.lastIndexOf('/') + 1), inAMinute())).find(
      (w) => w.key === key,
    );
    if (write) return write;
    if (Date.now() > deadline) throw new Error(`no partial write of ${key} listed within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function readAll(stream: Readable): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of stream) {
    const buffer = chunk as Buffer;
    bytes += buffer.length;
    hash.update(buffer);
  }
  return { bytes, sha256: hash.digest('hex') };
}

/** Bounded concurrency: a thousand parallel requests would just queue in the HTTP agent. */
async function inBatches<T>(items: T[], size: number, run: (item: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += size) {
    await Promise.all(items.slice(i, i + size).map(run));
  }
}
