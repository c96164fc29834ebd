import { pageMarker } from '../../chunker/pageMarkers';
import { cleanPdfText, stripPageReference } from './cleanText';
import { edgeLines, headingLevel, runningKey, type LayoutProfile } from './layoutProfile';
import type { OutlineEntry } from './outline';
import { placeOutlineHeadings } from './outlineHeadings';
import type { PageShapes } from './pageGeometry';
import type { PdfLine } from './pageLines';
import { isReferencePage } from './referencePages';
import { OpenTable } from './tables/openTable';
import { isPdfTable, type PdfTable } from './tables/pdfTable';
import { placeTables } from './tables/placeTables';

/** Bullets typesetters use for itemized lists. */
const BULLET = /^[•◦▪‣●○■□∙–]\s*/;
/** A paragraph gap is clearly larger than the line pitch (about 1.2× the font size). */
const PARAGRAPH_GAP_RATIO = 1.45;
/** A first-line indent of at least this many font sizes starts a paragraph. */
const INDENT_RATIO = 0.9;
/** Courier and most fixed-pitch fonts are 0.6 em wide; this turns a code line's offset into spaces. */
const MONO_CHAR_WIDTH = 0.6;
/** Beyond this, consecutive large lines are a title page or a block quote, not one wrapped heading. */
const MAX_HEADING_CHARS = 120;
const SENTENCE_END = /[.!?:;。！？：；]["'”’)]*$/;
/** A bare page number, arabic or roman. */
const PAGE_NUMBER = /^(\d{1,4}|[ivxlc]{1,6})$/i;
/** A header carrying its page number at one end ("Chapter 2: Vectors 14", "22 gnuplot 5.4"). */
const NUMBERED_HEADER = /^\d{1,4}\s|\s\d{1,4}$/;
const CJK_EDGE = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\u3000-\u303f\uff00-\uffef]/u;

interface Paragraph {
  /**
   * Its lines and the separators between them, joined when the paragraph ends: appending to one
   * string and then reading its end (hyphen, sentence end) would copy the whole paragraph per line.
   */
  pieces: string[];
  x: number;
  y: number;
  size: number;
  /** The page it starts on: a paragraph that runs on belongs to the page where a reader finds its start. */
  page: number;
}

/**
 * Turns the lines of successive pages into markdown blocks: headings from the document's outline
 * when it has one, else from the layout profile's font sizes; fixed-pitch runs as fenced code,
 * bullets as list items, and lines joined into paragraphs (across page breaks too) with TeX-style
 * hyphenation undone. Table-of-contents and index pages are left out. Only the open paragraph or
 * code block is held between pages; finished blocks are appended to the output.
 */
export class PdfMarkdownWriter {
  private readonly blocks: string[] = [];
  private paragraph: Paragraph | null = null;
  private code: PdfLine[] = [];
  private table: OpenTable | null = null;
  private lastHeading: { level: number; y: number } | null = null;
  /**
   * Running texts at the edges of the last two pages: a chapter's own running header (absent from
   * the sample) is known from the page before it, or the one before that on alternating layouts.
   */
  private recentEdgeKeys: Set<string>[] = [new Set(), new Set()];
  private afterReferencePage = false;
  /** The page being read, the page the last marker named, and the page the open code block began on. */
  private page = 0;
  private markedPage = 0;
  private codePage = 0;

  /** `fromOutline`: headings come only from the bookmarks handed to addPage, never from font sizes. */
  constructor(
    private readonly profile: LayoutProfile,
    private readonly fromOutline = false,
  ) {}

  /**
   * Returns false for a table-of-contents or index page, which is left out. `pageNumber` (1-based)
   * goes into the page marker (chunker/pageMarkers.ts) written before the page's first block.
   * `shapes`: the page's rules, which tables are read from (parsers/pdf/tables).
   */
  addPage(
    lines: PdfLine[],
    bookmarks: readonly OutlineEntry[] = [],
    pageNumber = this.page + 1,
    shapes?: PageShapes,
  ): boolean {
    this.page = pageNumber;
    const running = this.runningLines(lines);
    const body = lines.filter(
      (line, i) => !running.has(line) && !((i === 0 || i === lines.length - 1) && PAGE_NUMBER.test(line.text)),
    );
    this.afterReferencePage = isReferencePage(
      body.map((line) => line.text),
      this.afterReferencePage,
    );
    if (this.afterReferencePage) {
      this.flush();
      this.lastHeading = null;
      return false;
    }
    const placed = placeTables(this.fromOutline ? placeOutlineHeadings(body, bookmarks) : body, shapes);
    for (const item of placed)
      if (isPdfTable(item)) this.addTable(item);
      else this.addLine(item);
    // Coordinates do not carry over to the next page.
    if (this.paragraph) this.paragraph.y = Number.NaN;
    this.lastHeading = null;
    return true;
  }

  /** A line of its own between blocks (an OCR provenance marker): ends the open paragraph or code block. */
  addMarker(marker: string): void {
    this.flush();
    this.blocks.push(marker);
  }

  finish(): string {
    this.flush();
    return this.blocks.join('\n\n');
  }

  /** `raw`: the line as read, before ligatures and dot leaders are cleaned. */
  private addLine(raw: PdfLine): void {
    const level = raw.heading ?? (this.fromOutline ? null : headingLevel(this.profile, raw));
    if (level !== null) return this.addHeading(level, { ...raw, text: cleanPdfText(stripPageReference(raw.text)) });
    const line = { ...raw, text: cleanPdfText(raw.text) };
    this.lastHeading = null;
    this.flushTable();
    if (line.mono) {
      this.flushParagraph();
      if (this.code.length === 0) this.codePage = this.page;
      this.code.push(line);
      return;
    }
    this.flushCode();
    const bullet = BULLET.exec(line.text);
    const text = bullet ? `- ${line.text.slice(bullet[0].length)}` : line.text.replace(/^(#{1,6})(?=\s|$)/, '\\$1');
    if (!bullet && this.paragraph && this.continues(this.paragraph, line)) {
      appendLine(this.paragraph.pieces, text);
      this.paragraph.y = line.y;
      return;
    }
    this.flushParagraph();
    this.paragraph = { pieces: [text], x: line.x, y: line.y, size: line.size, page: this.page };
  }

  /**
   * A heading set over two lines (same level, consecutive lines) is one heading. A bookmark's
   * heading is whole already: two bookmarks in a row are two headings.
   */
  private addHeading(level: number, line: PdfLine): void {
    if (line.text === '') return;
    this.flush();
    const last = this.blocks[this.blocks.length - 1];
    const wraps =
      line.heading === undefined && this.lastHeading?.level === level && this.lastHeading.y - line.y < line.size * 2;
    if (wraps && last !== undefined && last.length + line.text.length <= MAX_HEADING_CHARS) {
      this.blocks[this.blocks.length - 1] = `${last} ${line.text}`;
    } else {
      this.push(`${'#'.repeat(level)} ${line.text}`, this.page);
    }
    this.lastHeading = { level, y: line.y };
  }

  private continues(paragraph: Paragraph, line: PdfLine): boolean {
    if (Number.isNaN(paragraph.y))
      return !SENTENCE_END.test(lastPiece(paragraph.pieces)) && !/^[\p{Lu}\d]/u.test(line.text);
    const gap = paragraph.y - line.y;
    if (gap <= 0 || gap > Math.max(paragraph.size, line.size) * PARAGRAPH_GAP_RATIO) return false;
    return line.x - paragraph.x < line.size * INDENT_RATIO || (paragraph.pieces[0] ?? '').startsWith('- ');
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

  /** A table held open until something else follows: the next page may continue it (tables/openTable.ts). */
  private addTable(table: PdfTable): void {
    this.flushParagraph();
    this.flushCode();
    this.lastHeading = null;
    if (this.table?.continueWith(table, this.page)) return;
    this.flushTable();
    this.table = new OpenTable(table, this.page);
  }

  private flush(): void {
    this.flushParagraph();
    this.flushCode();
    this.flushTable();
  }

  private flushTable(): void {
    if (this.table) this.push(this.table.markdown(), this.table.page);
    this.table = null;
  }

  private flushParagraph(): void {
    if (this.paragraph) this.push(this.paragraph.pieces.join(''), this.paragraph.page);
    this.paragraph = null;
  }

  private flushCode(): void {
    if (this.code.length === 0) return;
    let left = Infinity;
    for (const line of this.code) left = Math.min(left, line.x);
    const lines = this.code.map(
      (line) => ' '.repeat(Math.max(0, Math.round((line.x - left) / (line.size * MONO_CHAR_WIDTH)))) + line.text,
    );
    const fence = lines.some((line) => line.includes('```')) ? '~~~' : '```';
    this.push([fence, ...lines, fence].join('\n'), this.codePage);
    this.code = [];
  }

  /** A block, after the marker of its page when it is the first block of that page. */
  private push(block: string, page: number): void {
    if (page > this.markedPage) {
      this.blocks.push(pageMarker(page));
      this.markedPage = page;
    }
    this.blocks.push(block);
  }
}

/**
 * TeX hyphenates at line ends; CJK lines join without a space, everything else with one. Only the
 * last line is read and changed, so a paragraph costs the length of its lines, once.
 */
function appendLine(pieces: string[], next: string): void {
  const previous = lastPiece(pieces);
  if (/\p{Ll}-$/u.test(previous) && /^\p{Ll}/u.test(next)) pieces[pieces.length - 1] = previous.slice(0, -1);
  else if (!(CJK_EDGE.test(previous.slice(-1)) && CJK_EDGE.test(next.charAt(0)))) pieces.push(' ');
  pieces.push(next);
}

/** The paragraph's last line: pieces always end with a line, never with a separator. */
function lastPiece(pieces: string[]): string {
  return pieces[pieces.length - 1] ?? '';
}
