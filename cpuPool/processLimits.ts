/** What one parse child may cost. */
export interface ProcessLimits {
  /** Wall clock of one task, counted from when a child starts it. */
  timeoutMs: number;
  /** A task marked long (a document that may be OCR'd) gains this for each page it begins to OCR. */
  ocrPageMs?: number;
  /** ...up to this from its start, whatever it OCRs. */
  longTimeoutMs?: number;
  /** V8 old-generation heap of each child (--max-old-space-size). */
  maxHeapMb: number;
  /** Resident memory of each child, all of it: heap, Buffers, ArrayBuffers, native allocations. */
  maxMemoryMb: number;
}
