import { edgeLines, runningKey, type LayoutProfile } from './layoutProfile';
import type { PdfLine } from './pdfLine';

/** A bare page number, arabic or roman. */
const PAGE_NUMBER = /^(\d{1,4}|[ivxlc]{1,6})$/i;
/** A header carrying its page number at one end ("Chapter 2: Vectors 14", "22 gnuplot 5.4"). */
const NUMBERED_HEADER = /^\d{1,4}\s|\s\d{1,4}$/;

/** Tells a page's running headers, footers and page numbers from its body, page after page. */
export class RunningLines {
  /**
   * Running texts at the edges of the last two pages: a chapter's own running header (absent from
   * the sample) is known from the page before it, or the one before that on alternating layouts.
   */
  private recentEdgeKeys: Set<string>[] = [new Set(), new Set()];

  constructor(private readonly profile: LayoutProfile) {}

  /** The page's lines without its running headers and footers, nor a page number first or last. */
  bodyOf(lines: PdfLine[]): PdfLine[] {
    const running = this.runningLines(lines);
    return lines.filter(
      (line, i) => !running.has(line) && !((i === 0 || i === lines.length - 1) && PAGE_NUMBER.test(line.text)),
    );
  }

  /**
   * A running header or footer sits at a recurring height among a page's first or last two lines
   * AND its text recurs (digits aside) or is a page number: position alone would also match the
   * last body line of every full page.
   */
  private runningLines(lines: PdfLine[]): Set<PdfLine> {
    const running = new Set<PdfLine>();
    const keys = new Set<string>();
    for (const { line, top } of edgeLines(lines, this.profile.headerYs, this.profile.footerYs)) {
      const key = runningKey(line.text);
      keys.add(key);
      const known = this.profile.runningTexts.has(key) || this.recentEdgeKeys.some((recent) => recent.has(key));
      if (known || PAGE_NUMBER.test(line.text) || (top && NUMBERED_HEADER.test(line.text))) running.add(line);
    }
    this.recentEdgeKeys = [this.recentEdgeKeys[1] ?? new Set(), keys];
    return running;
  }
}
