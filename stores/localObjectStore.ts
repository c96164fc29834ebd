import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomUUID } from 'node:crypto';
import { ObjectNotFoundError, type ObjectStore, type PartialWrite } from './ports';

/** The temp file a write goes to before its rename: `<key>.<uuid>.partial`. */
const PARTIAL_SUFFIX = /\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.partial$/;
const PAGE_SIZE = 1000;

/** Keys are built by sluice from ids; this refuses anything that could escape the root. */
function safeKey(key: string): string {
  if (!/^[A-Za-z0-9._\-/]+$/.test(key) || key.split('/').some((part) => part === '..' || part === '.' || part === '')) {
    throw new Error(`invalid object key: ${JSON.stringify(key)}`);
  }
  return key;
}

function isGone(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * Every file under `dir` with its key and mtime, one directory open at a time. A sweep deletes
 * while it walks, so a directory or file that vanished since it was listed is skipped.
 */
async function* filesUnder(rootDir: string, dir: string): AsyncGenerator<{ key: string; mtime: Date }> {
  const pending = [dir];
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    let handle;
    try {
      handle = await fs.opendir(current);
    } catch (error) {
      if (isGone(error)) continue;
      throw error;
    }
    for await (const entry of handle) {
      const file = path.join(current, entry.name);
      if (entry.isDirectory()) pending.push(file);
      if (!entry.isFile()) continue;
      const stat = await fs.stat(file).catch((error: unknown) => {
        if (isGone(error)) return null;
        throw error;
      });
      if (stat) yield { key: path.relative(rootDir, file).split(path.sep).join('/'), mtime: stat.mtime };
    }
  }
}

async function* inPages<T>(items: AsyncIterable<T>): AsyncGenerator<T[]> {
  let page: T[] = [];
  for await (const item of items) {
    page.push(item);
    if (page.length === PAGE_SIZE) {
      yield page;
      page = [];
    }
  }
  if (page.length > 0) yield page;
}

/**
 * The embedded-default object store: a directory. Writes go to a temp file first and are
 * renamed into place, so a crash mid-write never leaves a half object under the real key.
 */
export function createLocalObjectStore(rootDir: string): ObjectStore {
  const resolve = (key: string) => path.join(rootDir, safeKey(key));

  async function writeAtomically(key: string, write: (tmp: string) => Promise<void>): Promise<void> {
    const target = resolve(key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    const tmp = `${target}.${randomUUID()}.partial`;
    try {
      await write(tmp);
      await fs.rename(tmp, target);
    } catch (error) {
      await fs.rm(tmp, { force: true });
      throw error;
    }
  }

  async function notFoundAware<T>(key: string, op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new ObjectNotFoundError(key);
      throw error;
    }
  }

  return {
    async putStream(key, body: Readable) {
      let sizeBytes = 0;
      // Counted inside the pipeline: a 'data' listener on the source would start it flowing
      // before the file stream is attached, and lose what came out meanwhile.
      const counter = new Transform({
        transform(chunk: Buffer, _enc, done) {
          sizeBytes += chunk.length;
          done(null, chunk);
        },
      });
      await writeAtomically(key, (tmp) => pipeline(body, counter, createWriteStream(tmp)));
      return { sizeBytes };
    },
    async putText(key, text) {
      await writeAtomically(key, (tmp) => fs.writeFile(tmp, text, 'utf8'));
    },
    async getStream(key) {
      const file = resolve(key);
      await notFoundAware(key, () => fs.access(file));
      return createReadStream(file);
    },
    async getText(key) {
      return notFoundAware(key, () => fs.readFile(resolve(key), 'utf8'));
    },
    async exists(key) {
      return fs.access(resolve(key)).then(
        () => true,
        () => false,
      );
    },
    async deletePrefix(prefix) {
      const base = resolve(prefix.replace(/\/+$/, ''));
      const stat = await fs.stat(base).catch(() => null);
      if (!stat) return 0;
      if (stat.isFile()) {
        await fs.rm(base, { force: true });
        return 1;
      }
      const entries = await fs.readdir(base, { recursive: true, withFileTypes: true });
      const files = entries.filter((e) => e.isFile()).length;
      await fs.rm(base, { recursive: true, force: true });
      return files;
    },
    async *listOlderThan(prefix, before) {
      async function* keys() {
        for await (const file of filesUnder(rootDir, resolve(prefix.replace(/\/+$/, '')))) {
          if (!PARTIAL_SUFFIX.test(file.key) && file.mtime < before) yield file.key;
        }
      }
      yield* inPages(keys());
    },
    async *listPartialWrites(prefix, before) {
      // A write in progress touches its temp file with every chunk: only an idle one is this old.
      async function* writes(): AsyncGenerator<PartialWrite> {
        for await (const file of filesUnder(rootDir, resolve(prefix.replace(/\/+$/, '')))) {
          if (PARTIAL_SUFFIX.test(file.key) && file.key.startsWith(prefix) && file.mtime < before) {
            yield { key: file.key.replace(PARTIAL_SUFFIX, ''), id: file.key, since: file.mtime };
          }
        }
      }
      yield* inPages(writes());
    },
    async abortPartialWrite(write) {
      if (!PARTIAL_SUFFIX.test(write.id)) throw new Error(`not a partial write: ${JSON.stringify(write.id)}`);
      // The writer's rename then fails, and its putStream with it.
      await fs.rm(resolve(write.id), { force: true });
    },
  };
}
