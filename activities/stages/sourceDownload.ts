import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { permanentError, SluiceError, transientError } from '../../contracts/sluiceError';
import { DETECTION_HEAD_BYTES } from '../../parsers/detectFileType';
import { ObjectNotFoundError } from '../../stores/ports';
import type { ActivityDeps } from '../deps';

/** Streams the source to disk with a byte limit, so no file is ever held whole in memory. */
export async function downloadSource(deps: ActivityDeps, key: string, tmpFile: string): Promise<void> {
  let source;
  try {
    source = await deps.objects.getStream(key);
  } catch (error) {
    if (error instanceof ObjectNotFoundError)
      throw permanentError('SOURCE_FILE_NOT_FOUND', `source object ${key} is missing`);
    throw error;
  }
  let seen = 0;
  const limit = deps.settings.maxFileBytes;
  const guard = new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (seen > limit) done(permanentError('FILE_TOO_LARGE', `source exceeds the limit of ${limit} bytes`));
      else done(null, chunk);
    },
  });
  try {
    await pipeline(source, guard, createWriteStream(tmpFile));
  } catch (error) {
    if (error instanceof SluiceError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'ENOSPC')
      throw transientError('TEMP_DISK_FULL', 'no space left for the temp file', error);
    throw error;
  }
}

/** The first bytes of the file, which its type is detected from. */
export async function readHead(file: string): Promise<Buffer> {
  const handle = await fs.open(file, 'r');
  try {
    const buffer = Buffer.alloc(DETECTION_HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, DETECTION_HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
