import { pageMarker } from '../../chunker/pageMarkers';
import { tableCell, toPipeTable } from '../markdownTable';
import { readRelationships, relationshipKind, type Relationship } from './relationships';
import { UNLIMITED_MARKDOWN, type MarkdownBudget } from '../markdownBudget';
import { NO_IMAGES, type EmbeddedImages } from './embeddedImages';
import { parseXmlPart } from './xmlEvents';
import type { ZipArchive } from './zipArchive';

interface SlideText {
  title: string;
  paragraphs: string[];
  tables: string[][][];
}

const TITLE_PLACEHOLDERS = new Set(['title', 'ctrTitle']);
/** Slide-number, date and footer placeholders repeat on every slide and say nothing. */
const CHROME_PLACEHOLDERS = new Set(['sldNum', 'dt', 'ftr', 'sldImg', 'hdr']);

/**
 * Slides in presentation order (p:sldIdLst, not file names: slide10.xml may come second), each a
 * section "Slide N: title" with its text, tables and speaker notes. A picture kept (`images`) is
 * a paragraph of the slide: its reference, with the picture's description as alt text.
 */
export async function pptxToMarkdown(
  archive: ZipArchive,
  budget: MarkdownBudget = UNLIMITED_MARKDOWN(),
  images: EmbeddedImages = NO_IMAGES(),
): Promise<string> {
  const presentation = 'ppt/presentation.xml';
  const relationships = await readRelationships(archive, presentation);
  const slideIds: string[] = [];
  await parseXmlPart(archive, presentation, {
    open(name, a) {
      if (name === 'p:sldId' && a['r:id']) slideIds.push(a['r:id']);
    },
  });
  const blocks: string[] = [];
  // A slide listed twice would be read twice: a short list could make the parser reread one big part.
  const seen = new Set<string>();
  for (const [index, id] of slideIds.entries()) {
    const part = relationships.get(id)?.part;
    if (!part || seen.has(part)) continue;
    seen.add(part);
    const slideRelationships = await readRelationships(archive, part);
    const slide = await readSlide(archive, part, (id, alt) => {
      const picture = slideRelationships.get(id);
      return picture && !picture.external ? images.reference(picture.part, alt) : null;
    });
    const notes = await readNotes(archive, slideRelationships);
    // Text is bounded by the inflation guard; what counts here is a slide part listed many times over.
    budget.add(slide.title);
    for (const text of [...slide.paragraphs, ...notes]) budget.add(text, 2);
    for (const row of slide.tables.flat()) for (const cell of row) budget.add(cell, 3);
    const heading = `# Slide ${index + 1}${slide.title ? `: ${slide.title}` : ''}`;
    const tables = slide.tables.map((rows) => toPipeTable(rows.map((row) => row.map(tableCell))));
    const body = [...slide.paragraphs, ...tables, ...(notes.length > 0 ? [`Notes: ${notes.join(' ')}`] : [])];
    // Each slide is a page (chunker/pageMarkers.ts), so a chunk says which slide it came from.
    blocks.push([pageMarker(index + 1), heading, ...body].join('\n\n'));
  }
  return blocks.join('\n\n');
}

async function readSlide(
  archive: ZipArchive,
  part: string,
  pictureReference: (relationshipId: string, alt: string) => string | null,
): Promise<SlideText> {
  const slide: SlideText = { title: '', paragraphs: [], tables: [] };
  let pictureAlt = '';
  let placeholder: string | null = null;
  let paragraph = '';
  let level = 0;
  let inText = false;
  let table: string[][] | null = null;
  await parseXmlPart(archive, part, {
    open(name, a) {
      if (name === 'p:sp') placeholder = null;
      else if (name === 'p:ph') placeholder = a.type ?? 'body';
      else if (name === 'a:tbl') table = [];
      else if (name === 'a:tr') table?.push([]);
      else if (name === 'a:tc') table?.[table.length - 1]?.push('');
      else if (name === 'a:p') [paragraph, level] = ['', 0];
      else if (name === 'a:pPr') level = Number(a.lvl ?? 0);
      else if (name === 'a:t') inText = true;
      else if (name === 'a:br') paragraph += ' ';
      else if (name === 'p:cNvPr') pictureAlt = a.descr || a.title || '';
      else if (name === 'a:blip' && a['r:embed']) {
        const reference = pictureReference(a['r:embed'], pictureAlt);
        if (reference) slide.paragraphs.push(reference);
      }
    },
    text(text) {
      if (inText) paragraph += text;
    },
    close(name) {
      if (name === 'a:t') inText = false;
      else if (name === 'a:tbl' && table) {
        slide.tables.push(table);
        table = null;
      } else if (name === 'a:p') {
        const text = paragraph.trim();
        const row = table?.[table.length - 1];
        if (text === '' || (placeholder && CHROME_PLACEHOLDERS.has(placeholder))) return;
        // Appended without trimming the result: trim() would copy the whole growing text per paragraph.
        if (row && row.length > 0) row[row.length - 1] = joinWords(row[row.length - 1] ?? '', text);
        else if (placeholder && TITLE_PLACEHOLDERS.has(placeholder)) slide.title = joinWords(slide.title, text);
        else slide.paragraphs.push(level > 0 ? `${'  '.repeat(level - 1)}- ${text}` : text);
      }
    },
  });
  return slide;
}

function joinWords(before: string, text: string): string {
  return before === '' ? text : `${before} ${text}`;
}

/** Speaker notes live in the notes slide's body placeholder. */
async function readNotes(archive: ZipArchive, slideRelationships: Map<string, Relationship>): Promise<string[]> {
  const notesPart = [...slideRelationships.values()].find((r) => relationshipKind(r.type) === 'notesSlide')?.part;
  if (!notesPart) return [];
  const notes: string[] = [];
  let placeholder: string | null = null;
  let paragraph = '';
  let inText = false;
  await parseXmlPart(archive, notesPart, {
    open(name, a) {
      if (name === 'p:sp') placeholder = null;
      else if (name === 'p:ph') placeholder = a.type ?? 'body';
      else if (name === 'a:p') paragraph = '';
      else if (name === 'a:t') inText = true;
    },
    text(text) {
      if (inText) paragraph += text;
    },
    close(name) {
      if (name === 'a:t') inText = false;
      else if (name === 'a:p' && placeholder === 'body' && paragraph.trim() !== '') notes.push(paragraph.trim());
    },
  });
  return notes;
}
