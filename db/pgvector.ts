import { createHash } from 'node:crypto';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from './database';
/** A model's name and dimension: which rows an index and a search cover. */
export interface ModelRef {
  model: string;
  dimension: number;
}

/** The tables of whole-chunk dense vectors: each model and dimension gets an HNSW index in each. */
export type DenseTable = 'dense_vectors' | 'language_dense_vectors';

/**
 * pgvector indexes `vector` up to 2,000 dimensions and `halfvec` (two bytes a value) up to 4,000.
 * A model past 4,000 dimensions gets no index: its rows are ranked exactly.
 */
const VECTOR_MAX_INDEXED = 2000;
const HALFVEC_MAX_INDEXED = 4000;

/**
 * The column holds every model's vectors (`vector` with no fixed dimension), so an index is built
 * on a cast to the model's dimension, for that model's rows only (a partial index): one HNSW graph
 * per model and dimension, as Qdrant keeps one collection per model. A search names the same cast
 * and the same model and dimension, so the planner can use it.
 */
export function indexedVector(dimension: number): RawBuilder<unknown> | null {
  if (!Number.isInteger(dimension) || dimension < 1) return null;
  if (dimension <= VECTOR_MAX_INDEXED) return sql`(vector::vector(${sql.lit(dimension)}))`;
  if (dimension <= HALFVEC_MAX_INDEXED) return sql`(vector::halfvec(${sql.lit(dimension)}))`;
  return null;
}

/** The same cast applied to a query vector, so that `<=>` compares like with like. */
export function queryVector(vector: number[], dimension: number): RawBuilder<unknown> {
  const literal = vectorLiteral(vector);
  if (dimension > VECTOR_MAX_INDEXED && dimension <= HALFVEC_MAX_INDEXED)
    return sql`${literal}::halfvec(${sql.lit(dimension)})`;
  return sql`${literal}::vector(${sql.lit(dimension)})`;
}

/** pgvector's text form, `[1,2,3]`: what a `vector` parameter is sent as. */
export function vectorLiteral(vector: readonly number[]): string {
  return `[${vector.join(',')}]`;
}

/** The rows of one model: the partial index's predicate, with literals so that a plan can prove it. */
export function ofModel(model: ModelRef): RawBuilder<unknown> {
  return sql`model = ${sql.lit(model.model)} AND dimension = ${sql.lit(model.dimension)}`;
}

/** An HNSW graph's build parameters: links per node and the candidates kept while linking. */
export interface HnswGraph {
  m: number;
  efConstruction: number;
}

/** pgvector's own defaults. */
export const DEFAULT_HNSW_GRAPH: HnswGraph = { m: 16, efConstruction: 64 };

/** `dense_vectors_hnsw_<hash of the model>_<dimension>`: under Postgres's 63 bytes for any model name. */
export function hnswIndexName(table: DenseTable, model: ModelRef): string {
  const hash = createHash('sha256').update(model.model).digest('hex').slice(0, 12);
  return `${table}_hnsw_${hash}_${model.dimension}`;
}

/**
 * The model's HNSW index (cosine) in `table`, created the first time a process writes the model,
 * under an advisory lock so that two workers do not build it at once. Created before the model's
 * first rows land, it is built on no rows and then kept up by every insert. A model whose index
 * already exists costs one catalog read per process.
 */
export async function ensureHnswIndex(
  db: Kysely<Database>,
  /** Indexes this store knows exist: each is checked once, then writes go straight on. */
  ensured: Set<string>,
  table: DenseTable,
  model: ModelRef,
  graph: HnswGraph = DEFAULT_HNSW_GRAPH,
): Promise<void> {
  const name = hnswIndexName(table, model);
  if (ensured.has(name)) return;
  const expression = indexedVector(model.dimension);
  if (expression === null) return;
  const create = async (trx: Kysely<Database>) => {
    await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`hnsw:${name}`}, 0))`.execute(trx);
    const opclass = model.dimension > VECTOR_MAX_INDEXED ? sql`halfvec_cosine_ops` : sql`vector_cosine_ops`;
    await sql`CREATE INDEX IF NOT EXISTS ${sql.id(name)} ON ${sql.table(table)}
                USING hnsw (${expression} ${opclass})
                WITH (m = ${sql.lit(graph.m)}, ef_construction = ${sql.lit(graph.efConstruction)})
                WHERE ${ofModel(model)}`.execute(trx);
  };
  // A migration runs in its own transaction already.
  if (db.isTransaction) await create(db);
  else await db.transaction().execute(create);
  ensured.add(name);
}
