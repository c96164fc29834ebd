/**
 * How many rows the Postgres store's coarse pass (Hamming distance of the sign bits) hands to the
 * quantized cosine, when SLUICE_DENSE_RERANK_CANDIDATES does not say; the best twice the page of
 * those are then scored exactly. A dataset with no more rows of the model than this is ranked
 * whole. Measured (docs/search.md): on real embeddings (bench:dense-recall, USE over 27,339
 * passages of Debian manuals, 414 questions) the search kept 0.904 / 0.963 / 0.985 / 0.995 of the
 * exact top 10 at depths 100 / 250 / 500 / 1,000, so what counts is the depth's share of the
 * dataset; on 100,000 generated chunks (bench:search) 1,000 cost 12 ms of hybrid p50 more than 500
 * and 2,000 cost 18 ms. 500 keeps the latency target; a dataset of 100,000 chunks or more keeps
 * more of its nearest neighbours with 1,000 to 2,000.
 */
export const DEFAULT_DENSE_RERANK_CANDIDATES = 500;

/**
 * How many rows of a model a dataset holds before the Postgres store clusters them into cells
 * (its inverted-file index, stores/postgresDenseCells.ts), when SLUICE_DENSE_CELLS_MIN_ROWS does
 * not say. Below it the sign-bit pass over every row is short (54 ms at 100,000 rows in
 * bench:search, so about half that), and reading every row keeps the most of the exact top 10;
 * above it that pass grows with the dataset while the cells' cost in recall does not.
 */
export const DEFAULT_DENSE_CELL_MIN_ROWS = 50_000;

/**
 * The share of a model's cells a search reads, nearest its query first, when
 * SLUICE_DENSE_CELL_PROBE_SHARE does not say. On real embeddings (bench:dense-recall, 27,339
 * passages in 165 cells) a quarter of the cells held 0.278 of the passages and kept 0.959 of the
 * exact top 10 at depth 500 (every cell: 0.985; a half: 0.981; an eighth: 0.930); on 100,000
 * generated chunks (bench:search) it cut hybrid p50 to 0.72-0.75 of reading every cell.
 */
export const DEFAULT_DENSE_CELL_PROBE_SHARE = 0.25;
