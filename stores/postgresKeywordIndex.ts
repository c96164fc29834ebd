import { sql, type Insertable, type Kysely } from 'kysely';
import type { Database, KeywordEntriesTable } from '../db/database';
import type { KeywordIndex } from './ports';
import { searchCondition } from './postgresDocumentFilter';

const WRITE_BATCH = 200;
/** Long queries add little ranking signal but cost an OR branch each. */
const MAX_QUERY_TERMS = 32;

type EntryRow = Insertable<KeywordEntriesTable>;

/**
 * SQLSTATE classes an entry's own data causes, so that the row is refused whenever it is sent:
 * 21 (a chunk id twice in one statement), 22 (data exception, e.g. a NUL byte), 23 (integrity)
 * and 54 (program limit: a tsvector over 1 MB, an index row over 8 KB).
 */
const ENTRY_REFUSALS = new Set(['21', '22', '23', '54']);

const refusesEntry = (err: unknown): boolean => {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && ENTRY_REFUSALS.has(code.slice(0, 2));
};

/** Upserts by chunk id, replacing the whole entry (like an OpenSearch index action); returns the ids written. */
async function upsert(db: Kysely<Database>, rows: EntryRow[]): Promise<string[]> {
  const written = await db
    .insertInto('keyword_entries')
    .values(rows)
    .onConflict((oc) =>
      oc.column('chunk_id').doUpdateSet((eb) => ({
        document_id: eb.ref('excluded.document_id'),
        user_id: eb.ref('excluded.user_id'),
        dataset_id: eb.ref('excluded.dataset_id'),
        file_name: eb.ref('excluded.file_name'),
        body: eb.ref('excluded.body'),
        tokens: eb.ref('excluded.tokens'),
        updated_at: sql`now()`,
      })),
    )
    .returning('chunk_id')
    .execute();
  return written.map((r) => r.chunk_id);
}

/**
 * A statement writes all its rows or none, so one bad entry would sink its whole batch, and the
 * stage could never tell which chunk to blame. When the data is the cause, the rows are written
 * one by one and only the refused ones are left out; any other error (connection, shutdown) throws.
 */
async function upsertIsolatingRefusals(db: Kysely<Database>, rows: EntryRow[]): Promise<string[]> {
  try {
    return await upsert(db, rows);
  } catch (err) {
    if (!refusesEntry(err)) throw err;
  }
  const written: string[] = [];
  for (const row of rows) {
    try {
      for (const id of await upsert(db, [row])) written.push(id);
    } catch (err) {
      if (!refusesEntry(err)) throw err;
    }
  }
  return written;
}

/**
 * The embedded-default keyword index: Postgres full-text search over the pretokenized terms
 * with the 'simple' configuration, so the tokens we computed (CJK words included) are the
 * lexemes, with no second, different analysis on top.
 */
export function createPostgresKeywordIndex(db: Kysely<Database>): KeywordIndex {
  return {
    async ensureIndex() {
      // The table and its GIN index come from the migrations; this only proves they are there.
      await sql`SELECT 1 FROM keyword_entries LIMIT 0`.execute(db);
    },

    async deleteDocument(scope, documentId) {
      await db
        .deleteFrom('keyword_entries')
        .where('document_id', '=', documentId)
        .where('user_id', '=', scope.userId)
        .where('dataset_id', '=', scope.datasetId)
        .execute();
    },

    async deleteDocumentExcept(scope, documentId, keepChunkIds) {
      await db
        .deleteFrom('keyword_entries')
        .where('document_id', '=', documentId)
        .where('user_id', '=', scope.userId)
        .where('dataset_id', '=', scope.datasetId)
        // One array parameter, however many chunks the document keeps.
        .where(sql<boolean>`chunk_id <> ALL(${keepChunkIds}::text[])`)
        .execute();
    },

    async bulkIndex(scope, entries) {
      const failedChunkIds: string[] = [];
      for (let i = 0; i < entries.length; i += WRITE_BATCH) {
        const rows = entries.slice(i, i + WRITE_BATCH).map((e) => ({
          chunk_id: e.chunkId,
          document_id: e.documentId,
          user_id: scope.userId,
          dataset_id: scope.datasetId,
          file_name: e.fileName,
          body: e.text,
          tokens: e.tokens.join(' '),
        }));
        const written = new Set(await upsertIsolatingRefusals(db, rows));
        for (const row of rows) if (!written.has(row.chunk_id)) failedChunkIds.push(row.chunk_id);
      }
      return { failedChunkIds };
    },

    async search(scope, queryTokens, limit) {
      const terms = [...new Set(queryTokens)].slice(0, MAX_QUERY_TERMS);
      if (terms.length === 0) return [];
      const query = sql.join(
        terms.map((t) => sql`plainto_tsquery('simple', ${t})`),
        sql` || `,
      );
      const { rows } = await sql<{ chunk_id: string; score: number }>`
        SELECT chunk_id, ts_rank_cd(tsv, q) AS score
          FROM keyword_entries, (SELECT ${query} AS q) AS query
         WHERE ${searchCondition(scope)} AND tsv @@ q
         ORDER BY score DESC, chunk_id
         LIMIT ${limit}`.execute(db);
      return rows.map((r) => ({ chunkId: r.chunk_id, score: Number(r.score) }));
    },

    // Filters join the documents table: there is no copy of the fields to keep.
    setDocumentFields: () => Promise.resolve(),

    async countForDocument(documentId) {
      const row = await db
        .selectFrom('keyword_entries')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('document_id', '=', documentId)
        .executeTakeFirstOrThrow();
      return row.n;
    },
  };
}
