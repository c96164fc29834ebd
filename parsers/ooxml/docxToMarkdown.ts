import { joinLineBreaks } from '../lineBreaks';
import { UNLIMITED_MARKDOWN, type MarkdownBudget } from '../markdownBudget';
import { tableCell, toPipeTable } from '../markdownTable';
import { readDocxStyles, type DocxStyles } from './docxStyles';
import { NO_IMAGES, type EmbeddedImages } from './embeddedImages';
import { readRelationships, type Relationship } from './relationships';
import { parseXmlPart } from './xmlEvents';
import type { ZipArchive } from './zipArchive';

interface Paragraph {
  text: string;
  style: string | null;
  numId: string | null;
  level: number;
}

interface Table {
  rows: string[][];
}

/** Elements whose text is not document text: field codes, deleted revisions, fallback copies. */
const SKIPPED = new Set(['w:instrText', 'w:delText', 'mc:Fallback', 'w:footnoteReference']);

/**
 * word/document.xml to markdown, streamed: headings from paragraph styles, list items from
 * numbering, tables as pipe tables (a nested table is flattened into its cell). Only the current
 * paragraph and table are held while the part streams by. A picture kept (`images`) becomes its
 * reference in the paragraph where it stands, with the drawing's description as its alt text.
 */
export async function docxToMarkdown(
  archive: ZipArchive,
  budget: MarkdownBudget = UNLIMITED_MARKDOWN(),
  images: EmbeddedImages = NO_IMAGES(),
): Promise<string> {
  const styles = await readDocxStyles(archive);
  const relationships = images.enabled
    ? await readRelationships(archive, 'word/document.xml')
    : new Map<string, Relationship>();
  let pictureAlt = '';
  const blocks: string[] = [];
  const paragraphs: Paragraph[] = [];
  const tables: Table[] = [];
  let skipping = 0;
  let inText = false;

  const append = (text: string): void => {
    const paragraph = paragraphs[paragraphs.length - 1];
    if (paragraph && skipping === 0) {
      budget.add(text);
      paragraph.text += text;
    }
  };

  await parseXmlPart(archive, 'word/document.xml', {
    open(name, a) {
      if (SKIPPED.has(name)) skipping++;
      const paragraph = paragraphs[paragraphs.length - 1];
      if (name === 'w:p') paragraphs.push({ text: '', style: null, numId: null, level: 0 });
      else if (name === 'w:t') inText = true;
      else if (name === 'w:tab') append('\t');
      else if (name === 'w:br' || name === 'w:cr') append('\n');
      else if (name === 'w:pStyle' && paragraph) paragraph.style = a['w:val'] ?? null;
      else if (name === 'w:numId' && paragraph) paragraph.numId = a['w:val'] ?? null;
      else if (name === 'w:ilvl' && paragraph) paragraph.level = Number(a['w:val'] ?? 0);
      else if (name === 'w:tbl') tables.push({ rows: [] });
      else if (name === 'w:tr') tables[tables.length - 1]?.rows.push([]);
      else if (name === 'w:tc') tables[tables.length - 1]?.rows[tables[tables.length - 1]!.rows.length - 1]?.push('');
      else if (name === 'wp:docPr') pictureAlt = a.descr || a.title || '';
      else if (name === 'a:blip' && a['r:embed']) {
        const picture = relationships.get(a['r:embed']);
        const reference = picture && !picture.external ? images.reference(picture.part, pictureAlt) : null;
        if (reference) append(` ${reference} `);
      }
    },
    text(text) {
      if (inText) append(text);
    },
    close(name) {
      if (SKIPPED.has(name)) skipping--;
      if (name === 'w:t') inText = false;
      else if (name === 'w:p') {
        const paragraph = paragraphs.pop();
        if (paragraph) emitParagraph(paragraph);
      } else if (name === 'w:tbl') {
        const table = tables.pop();
        if (table) emitTable(table);
      }
    },
  });
  return blocks.join('\n\n');

  function emitParagraph(paragraph: Paragraph): void {
    const table = tables[tables.length - 1];
    const row = table?.rows[table.rows.length - 1];
    if (row && row.length > 0) {
      // Inside a table cell: paragraphs of the cell are joined with spaces.
      const cell = row[row.length - 1] ?? '';
      row[row.length - 1] = cell === '' ? paragraph.text.trim() : `${cell} ${paragraph.text.trim()}`;
      return;
    }
    const markdown = paragraphMarkdown(paragraph, styles);
    if (markdown !== '') blocks.push(markdown);
  }

  function emitTable(table: Table): void {
    const rows = table.rows.map((row) => row.map(tableCell)).filter((row) => row.some((cell) => cell !== ''));
    if (rows.length === 0) return;
    const outer = tables[tables.length - 1];
    const outerRow = outer?.rows[outer.rows.length - 1];
    if (outerRow && outerRow.length > 0) {
      outerRow[outerRow.length - 1] += ` ${rows.map((row) => row.join(' ')).join(' ')}`;
      return;
    }
    blocks.push(toPipeTable(rows));
  }
}

function paragraphMarkdown(paragraph: Paragraph, styles: DocxStyles): string {
  const text = paragraph.text.replace(/[ \t]+/g, ' ').trim();
  if (text === '') return '';
  const level = paragraph.style ? styles.headingLevels.get(paragraph.style) : undefined;
  if (level) return `${'#'.repeat(level)} ${joinLineBreaks(text)}`;
  if (paragraph.numId && paragraph.numId !== '0') {
    const marker = (styles.bulletLists.get(paragraph.numId) ?? true) ? '-' : '1.';
    return `${'  '.repeat(Math.min(paragraph.level, 8))}${marker} ${joinLineBreaks(text)}`;
  }
  // A paragraph that starts like a heading or list is literal text in Word.
  return text.replace(/^(#{1,6})(?=\s|$)/, '\\$1');
}
