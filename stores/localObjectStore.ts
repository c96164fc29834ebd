import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomUUID } from 'node:crypto';
import { ObjectNotFoundError, type ObjectStore } from './ports';

/** Keys are built by sluice from ids; this refuses anything that could escape the root. */
function safeKey(key: string): string {
  if (!/^[A-Za-z0-9._\-/]+$/.test(key) || key.split('/').some((part) => part === '..' || part === '')) {
    throw new Error(`invalid object key: ${JSON.stringify(key)}`);
  }
  return key;
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
  };
}
