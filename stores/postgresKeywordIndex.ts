import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database';
import type { KeywordIndex } from './ports';

const WRITE_BATCH = 200;
/** Long queries add little ranking signal but cost an OR branch each. */
const MAX_QUERY_TERMS = 32;

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

    async bulkIndex(scope, entries) {
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
        await db
          .insertInto('keyword_entries')
          .values(rows)
          .onConflict((oc) =>
            oc.column('chunk_id').doUpdateSet((eb) => ({
              body: eb.ref('excluded.body'),
              tokens: eb.ref('excluded.tokens'),
              file_name: eb.ref('excluded.file_name'),
              updated_at: sql`now()`,
            })),
          )
          .execute();
      }
      // A statement either writes its whole batch or throws, so nothing is partially written here.
      return { failedChunkIds: [] };
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
         WHERE user_id = ${scope.userId} AND dataset_id = ${scope.datasetId} AND tsv @@ q
         ORDER BY score DESC
         LIMIT ${limit}`.execute(db);
      return rows.map((r) => ({ chunkId: r.chunk_id, score: Number(r.score) }));
    },

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
