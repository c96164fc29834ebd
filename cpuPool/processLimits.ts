/** What one parse child may cost. */
export interface ProcessLimits {
  /** Wall clock of one task, counted from when a child starts it. */
  timeoutMs: number;
  /**
   * The same for a task marked long (a document that may be OCR'd, whose pages each have their
   * own limit); timeoutMs when absent.
   */
  longTimeoutMs?: number;
  /** V8 old-generation heap of each child (--max-old-space-size). */
  maxHeapMb: number;
  /** Resident memory of each child, all of it: heap, Buffers, ArrayBuffers, native allocations. */
  maxMemoryMb: number;
}
