import { pageMarker } from '../../chunker/pageMarkers';
import { permanentError } from '../../contracts/sluiceError';
import { tableCell, toPipeTable } from '../markdownTable';
import { UNLIMITED_MARKDOWN, type MarkdownBudget } from '../markdownBudget';
import { assertNestedArchivesFit } from '../ooxml/nestedArchives';
import { SheetLayoutBudget } from '../ooxml/sheetLayoutBudget';
import { parseXmlPart } from '../ooxml/xmlEvents';
import { ZipArchive } from '../ooxml/zipArchive';
import { OdfParagraphs, paragraphMarkdown, type OdfParagraph } from './odfText';

/** Rows or cells one ODF row or cell with a value may be repeated into: real sheets repeat empties by the thousand, not values. */
const MAX_REPEAT = 1024;
/** The widest sheet LibreOffice writes; cells past it are not laid out. */
const MAX_COLUMNS = 16_384;

type Kind = 'text' | 'spreadsheet' | 'presentation';

/**
 * ODT, ODS and ODP (OpenDocument, ZIP packages) from their `content.xml`, streamed through the
 * same SAX parser, inflation guard and markdown budget as OOXML. A text document gives headings at
 * their outline level, paragraphs, nested lists and tables; a spreadsheet one pipe table per sheet;
 * a presentation one section per slide with its title, text and speaker notes. Each sheet and slide
 * is marked as a page (chunker/pageMarkers.ts).
 */
export async function odfToMarkdown(
  filePath: string,
  maxUncompressedBytes: number,
  budget: MarkdownBudget = UNLIMITED_MARKDOWN(),
): Promise<string> {
  const archive = await ZipArchive.open(filePath, maxUncompressedBytes);
  try {
    await assertNestedArchivesFit(archive, maxUncompressedBytes);
    if (!archive.has('content.xml'))
      throw permanentError('CORRUPT_DOCUMENT', 'the OpenDocument package has no content.xml');
    // A password-protected package lists how each part was encrypted in its manifest.
    let encrypted = false;
    await parseXmlPart(archive, 'META-INF/manifest.xml', {
      open: (name) => {
        if (name === 'manifest:encryption-data') encrypted = true;
      },
    });
    if (encrypted) throw permanentError('ENCRYPTED_DOCUMENT', 'the OpenDocument package is password-protected');
    const walker = new OdfWalker(budget);
    await parseXmlPart(archive, 'content.xml', walker);
    return walker.markdown();
  } finally {
    archive.close();
  }
}

/** One pass over content.xml: blocks in document order, tables as rows of cells, slides as pages. */
class OdfWalker {
  private kind: Kind | null = null;
  private readonly blocks: string[] = [];
  private readonly paragraphs = new OdfParagraphs((p) => this.paragraph(p));
  private readonly sheets: SheetLayoutBudget;
  private table: { name: string; rows: string[][]; depth: number } | null = null;
  /** A row's cells so far, and the empty cells after them not yet laid out (trailing empties never are). */
  private row: { cells: string[]; pendingEmpty: number; repeat: number } | null = null;
  private cell: { parts: string[]; repeat: number } | null = null;
  private slide: {
    number: number;
    title: string;
    body: string[];
    notes: string[];
    inTitle: boolean;
    inNotes: boolean;
  } | null = null;
  private slides = 0;
  private lastWasListItem = false;
  private sheetCount = 0;

  constructor(private readonly budget: MarkdownBudget) {
    this.sheets = new SheetLayoutBudget(budget);
  }

  open(name: string, a: Record<string, string>): void {
    if (name === 'office:text') this.kind = 'text';
    else if (name === 'office:spreadsheet') this.kind = 'spreadsheet';
    else if (name === 'office:presentation') this.kind = 'presentation';
    if (name === 'table:table') {
      if (this.table) this.table.depth++;
      else this.table = { name: a['table:name'] ?? `Sheet ${this.sheetCount + 1}`, rows: [], depth: 1 };
    } else if (this.table?.depth === 1 && name === 'table:table-row') {
      this.row = { cells: [], pendingEmpty: 0, repeat: repeat(a['table:number-rows-repeated']) };
    } else if (
      this.row &&
      this.table?.depth === 1 &&
      (name === 'table:table-cell' || name === 'table:covered-table-cell')
    ) {
      this.cell = { parts: [], repeat: repeat(a['table:number-columns-repeated']) };
    } else if (name === 'draw:page') {
      this.slides++;
      this.slide = { number: this.slides, title: '', body: [], notes: [], inTitle: false, inNotes: false };
    } else if (this.slide && name === 'draw:frame' && a['presentation:class'] === 'title') this.slide.inTitle = true;
    else if (this.slide && name === 'presentation:notes') this.slide.inNotes = true;
    this.paragraphs.open(name, a);
  }

  close(name: string): void {
    this.paragraphs.close(name);
    if (this.cell && (name === 'table:table-cell' || name === 'table:covered-table-cell')) {
      const text = tableCell(this.cell.parts.join(' ').trim());
      const row = this.row;
      if (row && text === '') row.pendingEmpty += this.cell.repeat;
      else if (row) {
        const room = () => MAX_COLUMNS - row.cells.length;
        for (let i = Math.min(row.pendingEmpty, room()); i > 0; i--) row.cells.push('');
        row.pendingEmpty = 0;
        for (let i = Math.min(this.cell.repeat, MAX_REPEAT, room()); i > 0; i--) row.cells.push(text);
      }
      this.cell = null;
    } else if (this.row && name === 'table:table-row') {
      this.closeRow();
    } else if (this.table && name === 'table:table') {
      if (--this.table.depth === 0) this.closeTable();
    } else if (this.slide && name === 'draw:frame') this.slide.inTitle = false;
    else if (this.slide && name === 'presentation:notes') this.slide.inNotes = false;
    else if (this.slide && name === 'draw:page') this.closeSlide();
  }

  text(text: string): void {
    if (this.paragraphs.inParagraph) this.paragraphs.text(text);
  }

  markdown(): string {
    return this.blocks.join('\n\n');
  }

  private paragraph(p: OdfParagraph): void {
    const markdown = paragraphMarkdown(p);
    if (markdown === '') return;
    if (this.cell) this.cell.parts.push(p.text);
    else if (this.slide) {
      if (this.slide.inNotes) this.slide.notes.push(p.text);
      else if (this.slide.inTitle && this.slide.title === '') this.slide.title = p.text;
      else this.slide.body.push(markdown);
    } else if (!this.table) {
      // Items of one list stay one block, each on its own line.
      const last = this.blocks.length - 1;
      if (p.listDepth > 0 && this.lastWasListItem && last >= 0) {
        this.budget.add(markdown, 1);
        this.blocks[last] = `${this.blocks[last]}\n${markdown}`;
      } else this.push(markdown);
      this.lastWasListItem = p.listDepth > 0;
    }
  }

  /** A row's trailing empty cells go; a row repeated keeps at most MAX_REPEAT copies, an empty one none. */
  private closeRow(): void {
    const row = this.row;
    this.row = null;
    if (!row || !this.table) return;
    const cells = row.cells;
    const width = cells.length;
    if (width === 0) {
      this.table.rows.push([]);
      return;
    }
    for (const cell of cells) if (cell !== '') this.sheets.addValue(this.table.name, cell);
    for (let i = 0; i < Math.min(row.repeat, MAX_REPEAT); i++) {
      this.sheets.addRow(this.table.name, width);
      this.table.rows.push(cells);
    }
  }

  private closeTable(): void {
    const table = this.table;
    this.table = null;
    if (!table) return;
    let end = table.rows.length;
    while (end > 0 && (table.rows[end - 1] as string[]).length === 0) end--;
    const rows = table.rows.slice(0, end);
    if (rows.length === 0) return;
    const width = rows.reduce((most, r) => Math.max(most, r.length), 0);
    const pipe = toPipeTable(rows.map((r) => [...r, ...Array<string>(width - r.length).fill('')]));
    if (this.kind === 'spreadsheet') {
      this.sheetCount++;
      this.push(`${pageMarker(this.sheetCount)}\n\n# ${table.name}\n\n${pipe}`);
    } else if (this.slide) this.slide.body.push(pipe);
    else this.push(pipe);
  }

  private closeSlide(): void {
    const slide = this.slide;
    this.slide = null;
    if (!slide) return;
    const heading = `# Slide ${slide.number}${slide.title ? `: ${slide.title}` : ''}`;
    const notes = slide.notes.length > 0 ? [`Notes: ${slide.notes.join(' ')}`] : [];
    this.push([pageMarker(slide.number), heading, ...slide.body, ...notes].join('\n\n'));
  }

  private push(block: string): void {
    this.budget.add(block, 2);
    this.blocks.push(block);
    this.lastWasListItem = false;
  }
}

function repeat(value: string | undefined): number {
  const n = Number(value ?? 1);
  return Number.isInteger(n) && n > 0 ? n : 1;
}
