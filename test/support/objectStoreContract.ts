import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { ObjectNotFoundError, type ObjectStore } from '../../stores/ports';

/**
 * The behaviour every ObjectStore adapter must share (DESIGN.md §6: one contract suite, run
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
      expect(await store.deletePrefix(`${base}/many/`)).toBe(count);
      expect(await store.exists(keys[0] ?? '')).toBe(false);
      expect(await store.exists(keys[count - 1] ?? '')).toBe(false);
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
