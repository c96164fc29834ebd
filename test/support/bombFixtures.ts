import { crc32, createDeflate } from 'node:zlib';
import { docxFixture } from './officeFixtures';
import { zipFixture } from './zipFixture';

/**
 * Decompression bombs, generated: each is small on disk and multiplies when read, built with
 * nothing but the formats' own compression and references.
 */

const MEGABYTE = 1024 * 1024;

/**
 * A one-page PDF whose content stream shows one line of text, then inflates to `inflatedMb` MB
 * of blanks (deflate packs them about a thousandfold). pdf.js decodes the stream into
 * ArrayBuffers, outside the JS heap, as it reads the operators.
 */
export async function pdfStreamBomb(inflatedMb: number): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const compressed: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => compressed.push(chunk));
  const done = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject));
  deflate.write('BT /F1 12 Tf 72 720 Td (A page of bait) Tj ET\n');
  const blanks = Buffer.alloc(MEGABYTE, ' ');
  for (let i = 0; i < inflatedMb; i++) {
    if (!deflate.write(blanks)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  const stream = Buffer.concat(compressed);

  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let length = 0;
  const push = (chunk: Buffer | string) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : chunk;
    parts.push(bytes);
    length += bytes.length;
  };
  const object = (n: number, ...body: (string | Buffer)[]) => {
    offsets[n] = length;
    push(`${n} 0 obj\n`);
    body.forEach(push);
    push('\nendobj\n');
  };
  push('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n');
  object(1, '<< /Type /Catalog /Pages 2 0 R >>');
  object(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
  object(
    3,
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
  );
  object(4, `<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`, stream, '\nendstream');
  object(5, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const xref = length;
  push('xref\n0 6\n0000000000 65535 f \n');
  for (let n = 1; n <= 5; n++) push(`${String(offsets[n]).padStart(10, '0')} 00000 n \n`);
  push(`trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
}

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** A workbook whose one shared string (`stringKb` KB of words) is referenced by `cells` cells, one per row. */
export function xlsxSharedStringBomb(stringKb: number, cells: number): Buffer {
  const shared = 'spam '.repeat(Math.ceil((stringKb * 1024) / 5));
  const rows = Array.from({ length: cells }, (_, i) => `<row r="${i + 1}"><c r="A${i + 1}" t="s"><v>0</v></c></row>`);
  return zipFixture([
    {
      name: 'xl/workbook.xml',
      data: `<workbook xmlns:r="${REL}"><sheets><sheet name="Sheet" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: `<Relationships><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    },
    { name: 'xl/sharedStrings.xml', data: `<sst><si><t>${shared}</t></si></sst>` },
    { name: 'xl/worksheets/sheet1.xml', data: `<worksheet><sheetData>${rows.join('')}</sheetData></worksheet>` },
  ]);
}

/**
 * A DOCX carrying an embedded archive whose entries are archives again (42.zip's shape): each
 * level multiplies what the innermost zeros inflate to, while every level's own directory is
 * honest and small, so no declared size gives it away.
 */
export function docxNestedArchiveBomb(levels: number, fanOut: number, innermostMb: number): Buffer {
  let archive = zipFixture([{ name: 'zeros.bin', data: Buffer.alloc(innermostMb * MEGABYTE) }]);
  for (let level = 1; level < levels; level++) {
    archive = zipFixture(Array.from({ length: fanOut }, (_, i) => ({ name: `level${level}-${i}.zip`, data: archive })));
  }
  return docxFixture(
    [{ text: 'A short letter with an attachment.' }],
    [{ name: 'word/embeddings/attachment.zip', data: archive }],
  );
}

/**
 * A valid PNG of `width` × `height` 1-bit grey pixels, all black: its rows deflate about a
 * thousandfold, so 40000 × 40000 is 194 KB on disk and 1.6 billion RGBA pixels once decoded.
 */
export async function pngPixelBomb(width: number, height: number): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const compressed: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => compressed.push(chunk));
  const done = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject));
  const row = Buffer.alloc(1 + Math.ceil(width / 8));
  for (let y = 0; y < height; y++) {
    if (!deflate.write(row)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([1, 0, 0, 0, 0], 8); // bit depth 1, greyscale, deflate, adaptive filters, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', Buffer.concat(compressed)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}
