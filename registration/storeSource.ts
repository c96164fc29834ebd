import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { SluiceError } from '../contracts/sluiceError';
import { DETECTION_HEAD_BYTES, detectFileType } from '../parsers/detectFileType';
import type { ObjectStore } from '../stores/ports';
import type { UploadRefusal } from './uploadRefusal';
import { LimitExceeded, meteredBody, readHead, type UploadBudget } from './streams';

export type StoredSource =
  | { kind: 'stored'; fileType: string; meter: { sha256: string; bytes: number } }
  | { kind: 'refused'; refusal: UploadRefusal };

export function bytesLeftExceeded(bytesLeft: number): string {
  return `the file exceeds what is left of the per-user quota (${bytesLeft} bytes)`;
}

function limitRefusal(budget: UploadBudget): UploadRefusal {
  return budget.limitedBy === 'file'
    ? {
        code: 'FILE_TOO_LARGE',
        message: `the file exceeds the upload limit of ${budget.maxBytes} bytes`,
        reason: 'size',
        unread: true,
      }
    : {
        code: 'QUOTA_EXCEEDED',
        message: bytesLeftExceeded(budget.maxBytes),
        reason: 'quota',
        unread: true,
      };
}

/**
 * Streams a file into the object store at `key`: its type decided on the first bytes before
 * anything is stored, its bytes hashed and counted as they flow, the budget stopping the stream
 * the moment it is crossed. A refusal (type, size, quota) is returned with nothing left at the
 * key (`removeObject` is the caller's, who knows whether a row already names the key); a broken
 * body (UploadInterrupted) and infrastructure failures are thrown the same way.
 */
export async function storeSource(
  objects: ObjectStore,
  key: string,
  file: { fileName: string; body: Readable },
  budget: UploadBudget,
  removeObject: () => Promise<void>,
): Promise<StoredSource> {
  const { chunks, head, ended } = await readHead(file.body, DETECTION_HEAD_BYTES);
  let fileType: string;
  try {
    fileType = detectFileType(head, file.fileName);
  } catch (error) {
    if (!(error instanceof SluiceError) || !error.permanent) throw error;
    return { kind: 'refused', refusal: { code: error.code, message: error.message, reason: 'type', unread: !ended } };
  }
  const meter = { hash: createHash('sha256'), bytes: 0 };
  try {
    await objects.putStream(
      key,
      Readable.from(meteredBody(chunks, ended ? null : file.body, budget, meter), { objectMode: false }),
    );
  } catch (error) {
    await removeObject();
    if (error instanceof LimitExceeded) return { kind: 'refused', refusal: limitRefusal(error.budget) };
    throw error;
  }
  return { kind: 'stored', fileType, meter: { sha256: meter.hash.digest('hex'), bytes: meter.bytes } };
}
