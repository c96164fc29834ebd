/** Bounds on what parsing one document may cost; hostile uploads hit these, not the worker. */
export interface ParseLimits {
  /** Wall-clock limit for one document's task in the CPU pool (PARSE_TIMEOUT when parsing). */
  timeoutMs: number;
  /** Total bytes an archive format (DOCX/PPTX/XLSX) may inflate to: the zip-bomb guard. */
  maxUncompressedBytes: number;
  /** V8 heap of each CPU pool thread; a document needing more fails as FILE_TOO_LARGE. */
  maxHeapMb: number;
}

export const DEFAULT_PARSE_LIMITS: ParseLimits = {
  timeoutMs: 10 * 60_000,
  maxUncompressedBytes: 512 * 1024 * 1024,
  maxHeapMb: 1024,
};
