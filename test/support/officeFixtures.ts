import { zipFixture, type ZipFixtureEntry } from './zipFixture';

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

const esc = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Paragraph kinds a test document is made of; headings use localized style ids on purpose. */
export type DocxBlock =
  { heading: number; text: string } | { bullet: string } | { text: string } | { table: string[][] };

export function docxFixture(blocks: DocxBlock[], extra: ZipFixtureEntry[] = []): Buffer {
  const styles = `<?xml version="1.0" encoding="UTF-8"?><w:styles ${W}>${[1, 2, 3]
    .map((n) => `<w:style w:type="paragraph" w:styleId="berschrift${n}"><w:name w:val="heading ${n}"/></w:style>`)
    .join('')}</w:styles>`;
  const numbering = `<w:numbering ${W}><w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>`;
  const run = (text: string): string => `<w:r><w:t xml:space="preserve">${esc(text)}</w:t></w:r>`;
  const body = blocks
    .map((block) => {
      if ('heading' in block)
        return `<w:p><w:pPr><w:pStyle w:val="berschrift${block.heading}"/></w:pPr>${run(block.text)}</w:p>`;
      if ('bullet' in block)
        return `<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr>${run(block.bullet)}</w:p>`;
      if ('table' in block) {
        const rows = block.table.map(
          (row) => `<w:tr>${row.map((cell) => `<w:tc><w:p>${run(cell)}</w:p></w:tc>`).join('')}</w:tr>`,
        );
        return `<w:tbl>${rows.join('')}</w:tbl>`;
      }
      // Split runs and a field code: the text must be joined, the field code left out.
      const half = Math.floor(block.text.length / 2);
      return `<w:p>${run(block.text.slice(0, half))}<w:r><w:instrText>PAGE \\* MERGEFORMAT</w:instrText></w:r>${run(block.text.slice(half))}</w:p>`;
    })
    .join('');
  return zipFixture([
    {
      name: '[Content_Types].xml',
      data: '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
    },
    {
      name: 'word/document.xml',
      data: `<?xml version="1.0" encoding="UTF-8"?><w:document ${W}><w:body>${body}</w:body></w:document>`,
    },
    { name: 'word/styles.xml', data: styles },
    { name: 'word/numbering.xml', data: numbering },
    ...extra,
  ]);
}

export function xlsxFixture(sheets: { name: string; rows: (string | number)[][] }[]): Buffer {
  const shared: string[] = [];
  const sheetXml = sheets.map(({ rows }) => {
    const xmlRows = rows.map((row, r) => {
      const cells = row.map((value, c) => {
        const ref = `${String.fromCharCode(65 + c)}${r + 1}`;
        if (typeof value === 'number') return `<c r="${ref}"><v>${value}</v></c>`;
        shared.push(value);
        return `<c r="${ref}" t="s"><v>${shared.length - 1}</v></c>`;
      });
      return `<row r="${r + 1}">${cells.join('')}</row>`;
    });
    return `<worksheet><sheetData>${xmlRows.join('')}</sheetData></worksheet>`;
  });
  const workbook = `<workbook xmlns:r="${REL}"><sheets>${sheets.map((s, i) => `<sheet name="${esc(s.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('')}</sheets></workbook>`;
  const rels = `<Relationships>${sheets.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('')}</Relationships>`;
  return zipFixture([
    { name: 'xl/workbook.xml', data: workbook },
    { name: 'xl/_rels/workbook.xml.rels', data: rels },
    { name: 'xl/sharedStrings.xml', data: `<sst>${shared.map((s) => `<si><t>${esc(s)}</t></si>`).join('')}</sst>` },
    ...sheetXml.map((data, i) => ({ name: `xl/worksheets/sheet${i + 1}.xml`, data })),
  ]);
}

/** Slides listed in reverse file order in presentation.xml, to prove the list decides the order. */
export function pptxFixture(slides: { title: string; bullets: string[]; notes?: string }[]): Buffer {
  const P = `xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="${REL}"`;
  const shape = (type: string | null, paragraphs: string[]): string =>
    `<p:sp><p:nvSpPr><p:nvPr>${type ? `<p:ph type="${type}"/>` : ''}</p:nvPr></p:nvSpPr><p:txBody>${paragraphs
      .map((text) => `<a:p><a:pPr lvl="1"/><a:r><a:t>${esc(text)}</a:t></a:r></a:p>`)
      .join('')}</p:txBody></p:sp>`;
  const entries: ZipFixtureEntry[] = [];
  const count = slides.length;
  slides.forEach((slide, i) => {
    const file = count - i;
    entries.push({
      name: `ppt/slides/slide${file}.xml`,
      data: `<p:sld ${P}><p:cSld><p:spTree>${shape('title', [slide.title])}${shape(null, slide.bullets)}${shape('sldNum', ['7'])}</p:spTree></p:cSld></p:sld>`,
    });
    if (slide.notes) {
      entries.push({
        name: `ppt/slides/_rels/slide${file}.xml.rels`,
        data: `<Relationships><Relationship Id="rId1" Type="${REL}/notesSlide" Target="../notesSlides/notesSlide${file}.xml"/></Relationships>`,
      });
      entries.push({
        name: `ppt/notesSlides/notesSlide${file}.xml`,
        data: `<p:notes ${P}><p:cSld><p:spTree>${shape('body', [slide.notes])}</p:spTree></p:cSld></p:notes>`,
      });
    }
  });
  const ids = slides.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 1}"/>`).join('');
  const rels = slides
    .map((_, i) => `<Relationship Id="rId${i + 1}" Type="${REL}/slide" Target="slides/slide${count - i}.xml"/>`)
    .join('');
  return zipFixture([
    { name: 'ppt/presentation.xml', data: `<p:presentation ${P}><p:sldIdLst>${ids}</p:sldIdLst></p:presentation>` },
    { name: 'ppt/_rels/presentation.xml.rels', data: `<Relationships>${rels}</Relationships>` },
    ...entries,
  ]);
}
