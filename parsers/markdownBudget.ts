import { permanentError } from '../contracts/sluiceError';

/**
 * The markdown one document may still produce (ParseLimits.markdown, markdownLimit). Parsers
 * whose output can outgrow their input many times over (a PDF's compressed streams, a workbook's
 * shared strings repeated in many cells) count each piece as they write it, so a bomb stops at
 * the limit instead of being built whole and measured afterwards.
 */
export class MarkdownBudget {
  private used = 0;

  constructor(readonly limitBytes: number) {}

  /** Counts `text` (its UTF-8 bytes) plus `extraBytes` of markup around it. */
  add(text: string, extraBytes = 0): void {
    this.addBytes(Buffer.byteLength(text, 'utf8') + extraBytes);
  }

  addBytes(bytes: number): void {
    this.used += bytes;
    if (this.used > this.limitBytes) {
      throw permanentError(
        'FILE_TOO_LARGE',
        `the document produces more than ${this.limitBytes} bytes of markdown (SLUICE_MAX_MARKDOWN_BYTES, or its share of the source size)`,
      );
    }
  }

  /** What a finished markdown weighs, whatever was counted on the way: the cap holds exactly. */
  check(markdown: string): void {
    this.used = 0;
    this.add(markdown);
  }
}

/** No cap: for direct calls of a parser outside the pipeline (tests, probes). */
export const UNLIMITED_MARKDOWN = (): MarkdownBudget => new MarkdownBudget(Number.POSITIVE_INFINITY);
