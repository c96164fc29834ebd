import { pageMarker } from '../../chunker/pageMarkers';
import { cleanPdfText, stripPageReference } from './cleanText';
import { fencedCode, type CodeLine } from './codeBlock';
import { splitFootnotes } from './footnotes';
import { headingLevel, type LayoutProfile } from './layoutProfile';
import { ListLevels } from './listLevels';
import { listItem, type ListItem } from './listMarkers';
import type { OutlineEntry } from './outline';
import { placeOutlineHeadings } from './outlineHeadings';
import type { PageShapes } from './pageGeometry';
import type { PdfLine } from './pdfLine';
import { appendLine, continuesParagraph, lineEnd, type Paragraph } from './paragraphText';
import { isReferencePage } from './referencePages';
import { RunningLines } from './runningLines';
import { OpenTable } from './tables/openTable';
import { isPdfTable, type PdfTable } from './tables/pdfTable';
import { placeTables } from './tables/placeTables';

/** Beyond this, consecutive large lines are a title page or a block quote, not one wrapped heading. */
const MAX_HEADING_CHARS = 120;

/**
 * Turns the lines of successive pages into markdown blocks: headings from the document's outline
 * when it has one, else from the layout profile's font sizes; fixed-pitch runs as fenced code,
 * bulleted and numbered items as (nested) list items, and lines joined into paragraphs (across page breaks too) with TeX-style
 * hyphenation undone. Table-of-contents and index pages are left out. Only the open paragraph or
 * code block is held between pages; finished blocks are appended to the output.
 */
export class PdfMarkdownWriter {
  private readonly blocks: string[] = [];
  private paragraph: Paragraph | null = null;
  private code: CodeLine[] = [];
  private table: OpenTable | null = null;
  private readonly lists = new ListLevels();
  /** Footnotes of pages the open paragraph, code block or table runs across: written once it ends. */
  private notes: { text: string; page: number }[] = [];
  private lastHeading: { level: number; y: number } | null = null;
  private readonly running: RunningLines;
  private afterReferencePage = false;
  /** The page being read and the page the last marker named. */
  private page = 0;
  private markedPage = 0;
  /** Where the page's longest line ends: the right edge of its text. */
  private rightEdge = Infinity;

  /** `fromOutline`: headings come only from the bookmarks handed to addPage, never from font sizes. */
  constructor(
    private readonly profile: LayoutProfile,
    private readonly fromOutline = false,
  ) {
    this.running = new RunningLines(profile);
  }

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
    const { text: body, notes } = splitFootnotes(this.running.bodyOf(lines), this.profile.bodySize);
    this.rightEdge = -Infinity;
    for (const line of body) this.rightEdge = Math.max(this.rightEdge, lineEnd(line));
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
    for (const text of notes) this.notes.push({ text: cleanPdfText(text), page: pageNumber });
    if (!this.paragraph && this.code.length === 0 && !this.table) this.pushNotes();
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
      this.code.push({ line, page: this.page });
      return;
    }
    this.flushCode();
    const item = listItem(line);
    const text = item ? this.itemText(item, line) : line.text.replace(/^(#{1,6})(?=\s|$)/, '\\$1');
    if (!item && this.paragraph && continuesParagraph(this.paragraph, line, this.rightEdge)) {
      appendLine(this.paragraph.pieces, text);
      this.paragraph.y = line.y;
      this.paragraph.end = lineEnd(line);
      return;
    }
    this.flushParagraph();
    if (!item) this.lists.paragraphAt(line.x, line.size);
    this.paragraph = {
      pieces: [text],
      x: line.x,
      y: line.y,
      size: line.size,
      page: this.page,
      item: item !== null,
      end: lineEnd(line),
    };
  }

  /** An item as markdown: `-` for bullets, its number for ordered lists, indented by its nesting. */
  private itemText(item: ListItem, line: PdfLine): string {
    const ordinal = item.letterI && this.lists.previousOrdinal(line.x, line.size) === 8 ? 9 : item.ordinal;
    const marker = ordinal === null ? '-' : `${ordinal}.`;
    return `${this.lists.indentOf(line.x, line.size, ordinal)}${marker} ${item.text}`;
  }

  /**
   * A heading set over two lines (same level, consecutive lines) is one heading. A bookmark's
   * heading is whole already: two bookmarks in a row are two headings.
   */
  private addHeading(level: number, line: PdfLine): void {
    if (line.text === '') return;
    this.flush();
    this.lists.end();
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

  /** A table held open until something else follows: the next page may continue it (tables/openTable.ts). */
  private addTable(table: PdfTable): void {
    this.flushParagraph();
    this.flushCode();
    this.lists.end();
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
    if (!this.table) return;
    this.push(this.table.markdown(), this.table.page);
    this.table = null;
    this.pushNotes();
  }

  private flushParagraph(): void {
    if (this.paragraph) this.push(this.paragraph.pieces.join(''), this.paragraph.page);
    this.paragraph = null;
    this.pushNotes();
  }

  private flushCode(): void {
    const first = this.code[0];
    if (!first) return;
    this.push(fencedCode(this.code), first.page);
    this.code = [];
    this.pushNotes();
  }

  private pushNotes(): void {
    for (const note of this.notes) this.push(note.text, note.page);
    this.notes = [];
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
