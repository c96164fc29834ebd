import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { chunkIdOf } from '../../chunker/chunkMarkdown';
import type { Database } from '../../db/database';

/** One chunk as the chaos checks compare it: position, id and a hash of the text. */
export interface ChunkPrint {
  index: number;
  kind: string;
  id: string;
  textSha256: string;
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

async function rows(db: Kysely<Database>, documentId: string) {
  return db
    .selectFrom('chunks')
    .select(['chunk_id', 'chunk_index', 'kind', 'text'])
    .where('document_id', '=', documentId)
    .orderBy('chunk_index')
    .execute();
}

/** Every chunk row of the document (parents and children), in document order. */
export async function chunkPrints(db: Kysely<Database>, documentId: string): Promise<ChunkPrint[]> {
  return (await rows(db, documentId)).map((r) => ({
    index: r.chunk_index,
    kind: r.kind,
    id: r.chunk_id,
    textSha256: sha(r.text),
  }));
}

/**
 * A clean run's chunks, re-keyed as `documentId`'s: chunk ids are derived from the document id,
 * the position and the text, so the same file ingested cleanly as another document gives the
 * ids a faulted run of `documentId` must end with.
 */
export async function cleanPrintsAs(
  db: Kysely<Database>,
  cleanDocumentId: string,
  documentId: string,
): Promise<ChunkPrint[]> {
  return (await rows(db, cleanDocumentId)).map((r) => ({
    index: r.chunk_index,
    kind: r.kind,
    id: chunkIdOf(documentId, r.chunk_index, r.text),
    textSha256: sha(r.text),
  }));
}

/**
 * Where the document's Postgres-held vectors and entries disagree with its child chunks: an
 * entry whose chunk row is gone, a child without its entry, or one chunk with two entries.
 * `tables` names those the deployment keeps in Postgres (the keyword entries may live in OpenSearch).
 */
export async function storeMismatches(
  db: Kysely<Database>,
  documentId: string,
  tables: readonly ('dense_vectors' | 'sparse_vectors' | 'keyword_entries')[] = [
    'dense_vectors',
    'sparse_vectors',
    'keyword_entries',
  ],
): Promise<string[]> {
  const found: string[] = [];
  for (const table of tables) {
    const result = await sql<{ problem: string; chunk_id: string }>`
      select 'orphan' as problem, e.chunk_id from ${sql.table(table)} e
        left join chunks c on c.chunk_id = e.chunk_id and c.kind = 'child'
        where e.document_id = ${documentId} and c.chunk_id is null
      union all
      select 'missing', c.chunk_id from chunks c
        left join ${sql.table(table)} e on e.chunk_id = c.chunk_id
        where c.document_id = ${documentId} and c.kind = 'child' and e.chunk_id is null
      union all
      select 'duplicate', chunk_id from ${sql.table(table)}
        where document_id = ${documentId} group by chunk_id having count(*) > 1
      limit 20`.execute(db);
    found.push(...result.rows.map((r) => `${table} ${r.problem}: ${r.chunk_id}`));
  }
  return found;
}
