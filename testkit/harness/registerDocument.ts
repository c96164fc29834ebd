import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database, DocumentRow } from '../../db/database';
import { insertDocument } from '../../db/repositories/documents';
import { objectKeys } from '../../stores/objectKeys';
import type { ObjectStore } from '../../stores/ports';
import { SourceReadError } from '../../registration/registerFile';

export interface RegisterDocumentInput {
  userId: string;
  datasetId: string;
  fileName: string;
  body: Readable;
  documentId?: string;
}

export { SourceReadError };

/**
 * Test and benchmark seeding, not a production path (uploads, the CLI and named sources all go
 * through registration/): it skips type detection, limits, quota and dedupe, so a test can store
 * the same content twice or a file of any type, and pick the document id.
 *
 * Streams an upload into the object store (hashing it on the way, never holding it whole) and
 * records the document row. The object key is built from ids only. On any failure nothing is
 * left behind: a body that fails aborts the write, and a row that cannot be written takes its
 * object with it.
 */
export async function registerDocument(
  deps: { db: Kysely<Database>; objects: ObjectStore },
  input: RegisterDocumentInput,
): Promise<DocumentRow> {
  const documentId = input.documentId ?? randomUUID();
  const key = objectKeys.source(input.userId, documentId);
  const hash = createHash('sha256');
  // The body is read here, not piped: a body that fails (a missing file, a read error mid-way)
  // throws into this loop, and the store's write fails with it, keeping no object. The loop
  // starts only when the store reads; until then this listener keeps an early error (a file
  // that cannot be opened) from going unhandled, and the loop still throws it.
  input.body.on('error', () => undefined);
  let readError: SourceReadError | undefined;
  async function* hashed() {
    try {
      // Leaving this loop early (the store stopped reading) destroys the body.
      for await (const chunk of input.body) {
        hash.update(chunk as Buffer);
        yield chunk as Buffer;
      }
    } catch (error) {
      // Node's own errors may come from another realm (a vm context): no instanceof Error.
      const message = (error as { message?: unknown } | null)?.message;
      readError = new SourceReadError(
        `could not read ${input.fileName}: ${typeof message === 'string' ? message : String(error)}`,
        { cause: error },
      );
      throw readError;
    }
  }
  let sizeBytes: number;
  try {
    ({ sizeBytes } = await deps.objects.putStream(key, Readable.from(hashed(), { objectMode: false })));
  } catch (error) {
    // A store that failed before reading leaves the body open (a file handle).
    input.body.destroy();
    // However the store wraps what the body threw, the caller learns it was the body.
    throw readError ?? error;
  }
  try {
    return await insertDocument(deps.db, {
      id: documentId,
      user_id: input.userId,
      dataset_id: input.datasetId,
      file_name: input.fileName,
      size_bytes: sizeBytes,
      content_sha256: hash.digest('hex'),
      source_object_key: key,
    });
  } catch (error) {
    // Only the object this call wrote (the key, not the document's prefix: a caller-chosen id
    // may belong to a document that exists). If this fails too, the orphan sweep removes it.
    await deps.objects.deletePrefix(key).catch(() => 0);
    throw error;
  }
}
