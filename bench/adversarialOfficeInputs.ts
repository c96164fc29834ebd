import { fixturePdf } from '../testkit/fixtures/pdfFixture';
import { pptxFixture, xlsxFixture } from '../testkit/fixtures/officeFixtures';
import { zipFixture, type ZipFixtureEntry } from '../testkit/fixtures/zipFixture';

/**
 * Hostile DOCX, XLSX, PPTX and PDF inputs of size n, for the adversarial tests and benchmark.
 * Each is small on disk (repetitive XML deflates to almost nothing) and big once parsed.
 */

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const P = `xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="${REL}"`;

const run = (text: string): string => `<w:r><w:t xml:space="preserve">${text}</w:t></w:r>`;

function docx(body: string, extra: ZipFixtureEntry[] = []): Buffer {
  return zipFixture([
    { name: 'word/document.xml', data: `<w:document ${W}><w:body>${body}</w:body></w:document>` },
    ...extra,
  ]);
}

/** A paragraph wrapped in n nested unknown elements, then n stray end tags the parser must look up. */
export function docxDeepNesting(n: number): Buffer {
  return docx(`${'<w:x>'.repeat(n)}<w:p>${run('deep paragraph')}</w:p>${'</w:y>'.repeat(n)}${'</w:x>'.repeat(n)}`);
}

/** A list item of two words separated by n no-break spaces (whitespace that [ \t] does not collapse). */
export function docxWhitespaceRun(n: number): Buffer {
  const listItem = '<w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr>';
  return docx(`<w:p>${listItem}${run(`before${'\u00a0'.repeat(n)}after`)}</w:p>`);
}

/** n paragraphs of one numbered word each. */
export function docxManyParagraphs(n: number): Buffer {
  return docx(Array.from({ length: n }, (_, i) => `<w:p>${run(`paragraph${i}`)}</w:p>`).join(''));
}

/** One table cell holding n paragraphs: the cell's text is built paragraph by paragraph. */
export function docxCellOfManyParagraphs(n: number): Buffer {
  const paragraphs = Array.from({ length: n }, (_, i) => `<w:p>${run(`line${i}`)}</w:p>`).join('');
  return docx(
    `<w:tbl><w:tr><w:tc><w:p>${run('head')}</w:p></w:tc></w:tr><w:tr><w:tc>${paragraphs}</w:tc></w:tr></w:tbl>`,
  );
}

/** A DOCX with n extra (tiny) parts in its archive. */
export function docxManyEntries(n: number): Buffer {
  const extra = Array.from({ length: n }, (_, i) => ({ name: `word/media/part${i}.xml`, data: '<x/>' }));
  return docx(`<w:p>${run('many entries')}</w:p>`, extra);
}

/** One sheet of n rows (a text and a number each). */
export function xlsxManyRows(n: number): Buffer {
  return xlsxFixture([{ name: 'Rows', rows: Array.from({ length: n }, (_, i) => [`row${i}`, i]) }]);
}

function xlsxSheet(sheetData: string, sharedStrings: string[] = []): Buffer {
  return zipFixture([
    {
      name: 'xl/workbook.xml',
      data: `<workbook xmlns:r="${REL}"><sheets><sheet name="Far" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: `<Relationships><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    },
    {
      name: 'xl/sharedStrings.xml',
      data: `<sst>${sharedStrings.map((text) => `<si><t>${text}</t></si>`).join('')}</sst>`,
    },
    { name: 'xl/worksheets/sheet1.xml', data: `<worksheet><sheetData>${sheetData}</sheetData></worksheet>` },
  ]);
}

/** n rows whose only cell sits in Excel's last column (XFD): each needs 16,383 empty cells before it. */
export function xlsxFarColumns(n: number): Buffer {
  return xlsxSheet(
    Array.from(
      { length: n },
      (_, i) => `<row r="${i + 1}"><c r="XFD${i + 1}" t="inlineStr"><is><t>far${i}</t></is></c></row>`,
    ).join(''),
  );
}

/** A cell reference beyond any spreadsheet's last column (a column index of about 26^n). */
export function xlsxImpossibleColumn(n: number): Buffer {
  return xlsxSheet(`<row r="1"><c r="A1"><v>1</v></c><c r="${'Z'.repeat(n)}1"><v>2</v></c></row>`);
}

/** One shared string of a megabyte, referenced by the cells of n rows (each reference is a few bytes). */
export function xlsxRepeatedSharedString(n: number): Buffer {
  const rows = Array.from({ length: n }, (_, i) => `<row r="${i + 1}"><c r="A${i + 1}" t="s"><v>0</v></c></row>`).join(
    '',
  );
  return xlsxSheet(rows, ['word '.repeat(200_000)]);
}

/** n slides of one title and one bullet. */
export function pptxManySlides(n: number): Buffer {
  return pptxFixture(Array.from({ length: n }, (_, i) => ({ title: `Slide title ${i}`, bullets: [`bullet${i}`] })));
}

function pptxOneSlide(spTree: string): Buffer {
  return zipFixture([
    {
      name: 'ppt/presentation.xml',
      data: `<p:presentation ${P}><p:sldIdLst><p:sldId id="256" r:id="rId1"/></p:sldIdLst></p:presentation>`,
    },
    {
      name: 'ppt/_rels/presentation.xml.rels',
      data: `<Relationships><Relationship Id="rId1" Type="${REL}/slide" Target="slides/slide1.xml"/></Relationships>`,
    },
    { name: 'ppt/slides/slide1.xml', data: `<p:sld ${P}><p:cSld><p:spTree>${spTree}</p:spTree></p:cSld></p:sld>` },
  ]);
}

const aParagraph = (text: string): string => `<a:p><a:r><a:t>${text}</a:t></a:r></a:p>`;

/** One slide holding n one-cell tables. */
export function pptxManyTables(n: number): Buffer {
  const table = (i: number): string =>
    `<a:tbl><a:tr><a:tc><a:txBody>${aParagraph(`cell${i}`)}</a:txBody></a:tc></a:tr></a:tbl>`;
  return pptxOneSlide(Array.from({ length: n }, (_, i) => table(i)).join(''));
}

/** A title placeholder of n paragraphs: the title is built paragraph by paragraph. */
export function pptxLongTitle(n: number): Buffer {
  const paragraphs = Array.from({ length: n }, (_, i) => aParagraph(`t${i}`)).join('');
  return pptxOneSlide(
    `<p:sp><p:nvSpPr><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:txBody>${paragraphs}</p:txBody></p:sp>`,
  );
}

/**
 * n pages of one short line each, continuing one sentence across every page break. The line's
 * height varies so that it is not taken for a running header.
 */
export function pdfTinyPages(n: number): Buffer {
  return fixturePdf(
    Array.from({ length: n }, (_, i) => [
      ...Array.from({ length: i % 5 }, () => ({ text: '' })),
      { text: `word${i} and` },
    ]),
  );
}

const EPUB_CONTAINER =
  '<container><rootfiles><rootfile full-path="OPS/book.opf" media-type="application/oebps-package+xml"/></rootfiles></container>';

function epub(items: string, spine: string, chapters: ZipFixtureEntry[]): Buffer {
  return zipFixture([
    { name: 'mimetype', data: 'application/epub+zip' },
    { name: 'META-INF/container.xml', data: EPUB_CONTAINER },
    { name: 'OPS/book.opf', data: `<package><manifest>${items}</manifest><spine>${spine}</spine></package>` },
    ...chapters,
  ]);
}

/** n chapters of one paragraph each, in the spine in order. */
export function epubManyChapters(n: number): Buffer {
  const ids = Array.from({ length: n }, (_, i) => i);
  return epub(
    ids.map((i) => `<item id="c${i}" href="c${i}.xhtml" media-type="application/xhtml+xml"/>`).join(''),
    ids.map((i) => `<itemref idref="c${i}"/>`).join(''),
    ids.map((i) => ({
      name: `OPS/c${i}.xhtml`,
      data: `<html><body><h1>Chapter ${i}</h1><p>text ${i}</p></body></html>`,
    })),
  );
}

/** One chapter listed n times in the spine (read once) and n manifest items that do not exist. */
export function epubRepeatedSpine(n: number): Buffer {
  const ghosts = Array.from(
    { length: n },
    (_, i) => `<item id="g${i}" href="g${i}.xhtml" media-type="application/xhtml+xml"/>`,
  );
  return epub(
    `<item id="c" href="c.xhtml" media-type="application/xhtml+xml"/>${ghosts.join('')}`,
    '<itemref idref="c"/>'.repeat(n) + ghosts.map((_, i) => `<itemref idref="g${i}"/>`).join(''),
    [{ name: 'OPS/c.xhtml', data: '<html><body><p>the only chapter</p></body></html>' }],
  );
}

const ODF_NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"';

function odf(kind: 'text' | 'spreadsheet' | 'presentation', body: string): Buffer {
  return zipFixture([
    { name: 'mimetype', data: `application/vnd.oasis.opendocument.${kind}`, stored: true },
    {
      name: 'content.xml',
      data: `<office:document-content ${ODF_NS}><office:body>${body}</office:body></office:document-content>`,
    },
  ]);
}

/** n paragraphs, each with a footnote and a comment. */
export function odtManyParagraphs(n: number): Buffer {
  const p = (i: number) =>
    `<text:p>line ${i}<text:note><text:note-citation>${i}</text:note-citation><text:note-body><text:p>note ${i}</text:p></text:note-body></text:note><office:annotation><text:p>c</text:p></office:annotation></text:p>`;
  return odf('text', `<office:text>${Array.from({ length: n }, (_, i) => p(i)).join('')}</office:text>`);
}

/** n rows, each a value repeated across a thousand columns and the row repeated a thousand times. */
export function odsRepeatedValues(n: number): Buffer {
  const row =
    '<table:table-row table:number-rows-repeated="1000"><table:table-cell table:number-columns-repeated="1000"><text:p>v</text:p></table:table-cell></table:table-row>';
  return odf(
    'spreadsheet',
    `<office:spreadsheet><table:table table:name="S">${row.repeat(n)}</table:table></office:spreadsheet>`,
  );
}

/** n slides of a title and a list item each. */
export function odpManySlides(n: number): Buffer {
  const slide = (i: number) =>
    `<draw:page><draw:frame presentation:class="title" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"><draw:text-box><text:p>Slide ${i}</text:p></draw:text-box></draw:frame><draw:frame><draw:text-box><text:list><text:list-item><text:p>point ${i}</text:p></text:list-item></text:list></draw:text-box></draw:frame></draw:page>`;
  return odf(
    'presentation',
    `<office:presentation>${Array.from({ length: n }, (_, i) => slide(i)).join('')}</office:presentation>`,
  );
}

/** n paragraphs of escaped characters, each in a group nested a hundred deep. */
export function rtfNestedParagraphs(n: number): Buffer {
  const p = `${'{'.repeat(100)}\\pard caf\\'e9 \\u20013?\\u25991? \\{x\\}\\par${'}'.repeat(100)}`;
  return Buffer.from(`{\\rtf1\\ansi${p.repeat(n)}}`, 'latin1');
}

/** A picture destination of n hex digits before one paragraph: skipped, but every byte is walked. */
export function rtfBigPicture(n: number): Buffer {
  return Buffer.from(`{\\rtf1\\ansi{\\pict\\pngblip ${'0a'.repeat(n)}}\\pard after\\par}`, 'latin1');
}
