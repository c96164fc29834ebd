import { createHash, randomUUID } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database, DocumentRow } from '../db/database';
import { insertDocument } from '../db/repositories/documents';
import { objectKeys } from '../stores/objectKeys';
import type { ObjectStore } from '../stores/ports';

export interface RegisterDocumentInput {
  userId: string;
  datasetId: string;
  fileName: string;
  body: Readable;
  documentId?: string;
}

/**
 * Streams an upload into the object store (hashing it on the way, never holding it whole) and
 * records the document row. The object key is built from ids only.
 */
export async function registerDocument(
  deps: { db: Kysely<Database>; objects: ObjectStore },
  input: RegisterDocumentInput,
): Promise<DocumentRow> {
  const documentId = input.documentId ?? randomUUID();
  const key = objectKeys.source(input.userId, documentId);
  const hash = createHash('sha256');
  const hashing = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  const { sizeBytes } = await deps.objects.putStream(key, input.body.pipe(hashing));
  return insertDocument(deps.db, {
    id: documentId,
    user_id: input.userId,
    dataset_id: input.datasetId,
    file_name: input.fileName,
    size_bytes: sizeBytes,
    content_sha256: hash.digest('hex'),
    source_object_key: key,
  });
}
