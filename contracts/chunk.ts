/** A chunk as the chunker produces it, before it becomes a row. */
export interface ChunkDraft {
  /** Deterministic: the same document and markdown always give the same ids. */
  chunkId: string;
  /** One global index in document order, parents and children interleaved. */
  chunkIndex: number;
  /** Parents hold a whole section for answer context; children are what gets retrieved. */
  kind: 'parent' | 'child';
  parentId: string | null;
  /** A parent's children: chunk_index first..last (they follow it directly); null on children. */
  childRange: { first: number; last: number } | null;
  sectionPath: string[];
  text: string;
  charCount: number;
  tokenCount: number;
  /** Lowest confidence of the OCR'd pages its text came from (chunker/ocrProvenance.ts); absent or null: a text layer. */
  ocrConfidence?: number | null;
  /** The pages (PDF), slides (PPTX) or sheets (XLSX) its text spans (chunker/chunkPages.ts); absent: unknown. */
  pages?: { first: number; last: number };
}

export interface SparseVector {
  indices: number[];
  values: number[];
}
