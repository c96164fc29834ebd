/**
 * How many rows the Postgres store's coarse pass (Hamming distance of the sign bits) hands to the
 * quantized cosine, when SLUICE_DENSE_RERANK_CANDIDATES does not say; the best twice the page of
 * those are then scored exactly. A dataset with no more rows of the model than this is ranked
 * whole. bench:search measures, side by side, the latency and the overlap with the exact scan's
 * top 10 at 100,000 chunks for several depths: the overlap was 1.0 at 250, 500 and 1,000, and
 * since candidates are scored from inline bytes, 1,000 costs about 8 ms more than 500. 500 stays
 * ten times the 50 candidates a retriever hands to fusion, a margin for real embeddings, whose
 * overlap the bench does not measure (its vectors are generated around cluster centres).
 */
export const DEFAULT_DENSE_RERANK_CANDIDATES = 500;
