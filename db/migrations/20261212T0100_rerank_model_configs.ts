import { sql, type Kysely } from 'kysely';

// A user's reranker is a model config beside CHAT and VISION (docs/search.md, "Reranker"), with the
// request shape it speaks: `tei` or `cohere` (rerank/rerankProtocol.ts). Null for the other purposes.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE model_configs DROP CONSTRAINT IF EXISTS model_configs_purpose_check`.execute(db);
  await sql`ALTER TABLE model_configs ADD CONSTRAINT model_configs_purpose_check
              CHECK (purpose IN ('chat', 'vision', 'rerank'))`.execute(db);
  await sql`ALTER TABLE model_configs ADD COLUMN api_shape text
              CHECK (api_shape IN ('tei', 'cohere'))`.execute(db);
  await sql`ALTER TABLE model_configs ADD CONSTRAINT model_configs_rerank_shape
              CHECK ((purpose = 'rerank') = (api_shape IS NOT NULL))`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DELETE FROM model_configs WHERE purpose = 'rerank'`.execute(db);
  await sql`ALTER TABLE model_configs DROP CONSTRAINT model_configs_rerank_shape`.execute(db);
  await sql`ALTER TABLE model_configs DROP COLUMN api_shape`.execute(db);
  await sql`ALTER TABLE model_configs DROP CONSTRAINT model_configs_purpose_check`.execute(db);
  await sql`ALTER TABLE model_configs ADD CONSTRAINT model_configs_purpose_check
              CHECK (purpose IN ('chat', 'vision'))`.execute(db);
}
