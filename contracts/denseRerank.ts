/**
 * How many rows the Postgres store's coarse pass (Hamming distance of the sign bits) hands to the
 * exact cosine, when SLUICE_DENSE_RERANK_CANDIDATES does not say. A dataset with no more rows of
 * the model than this is scored whole. bench:search measures, side by side, the latency and the
 * overlap with the exact scan's top 10 at 100,000 chunks for several depths: 500 halved the dense
 * list's time against 1,000 with the same overlap (1.0), and stays ten times the 50 candidates a
 * retriever hands to fusion, a margin for real embeddings, whose overlap the bench does not
 * measure (its vectors are generated around cluster centres).
 */
export const DEFAULT_DENSE_RERANK_CANDIDATES = 500;
