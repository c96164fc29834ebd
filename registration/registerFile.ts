import type { Readable } from 'node:stream';
import { usageOf } from '../db/repositories/documentCatalog';
import {
  budgetOrRefusal,
  registerUpload,
  type UploadFile,
  type UploadLimits,
  type UploadRegistration,
} from './registerUpload';

/** The body could not be read (missing file, read error mid-way): nothing was stored for it. */
export class SourceReadError extends Error {
  override readonly name = 'SourceReadError';
}

/**
 * A file that arrives on its own (the CLI's `ingest`): the user's quota decides its budget, then
 * registerUpload stores and records it like any upload (type from bytes, size limit, dedupe,
 * quota). A body that fails to read (a missing file, a directory, an I/O error mid-way) is a
 * SourceReadError naming the file, so the caller can tell it from a failure of sluice's own
 * stores; either way nothing is left behind. The body is always closed.
 */
export async function registerFile(
  deps: Parameters<typeof registerUpload>[0] & { limits: UploadLimits },
  file: UploadFile,
): Promise<UploadRegistration> {
  let readError: SourceReadError | undefined;
  // Registered before the first read: an early error (a file that cannot be opened) is kept
  // here instead of going unhandled.
  file.body.on('error', (error: unknown) => {
    // Node's own errors may come from another realm (a vm context): no instanceof Error.
    const message = (error as { message?: unknown } | null)?.message;
    readError ??= new SourceReadError(
      `could not read ${file.fileName}: ${typeof message === 'string' ? message : String(error)}`,
      { cause: error },
    );
  });
  try {
    const budget = budgetOrRefusal(deps.limits, await usageOf(deps.db, file.userId));
    if ('code' in budget) return { kind: 'refused', refusal: budget };
    return await registerUpload(deps, file, budget);
  } catch (error) {
    // However the store or the stream wraps what the body threw, the caller learns it was the body.
    throw readError ?? error;
  } finally {
    close(file.body);
  }
}

function close(body: Readable): void {
  if (!body.destroyed) body.destroy();
}
