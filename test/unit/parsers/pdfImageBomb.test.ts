import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { DEFAULT_PARSE_LIMITS } from '../../../parsers/parseLimits';
import { parseToMarkdown } from '../../../parsers/parseToMarkdown';
import { pdfOfObjects } from '../../../testkit/fixtures/pdfFixture';

// An image inside a PDF is decoded by pdf.js (to measure how much of a page it covers, and to
// render the page for OCR). pdf.js drops an image whose dictionary declares more than
// MAX_IMAGE_PIXELS, but a JPEG's own frame header, not its dictionary, says what the decoder
// allocates: before images were charged to the decode budget, a 2 KB JPEG in a 16 × 16 image
// dictionary whose frame declares 30000 × 30000 made pdf.js allocate about 1.8 GB of coefficient blocks.

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-pdf-image-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A real JPEG of 16 × 16 whose frame header (SOF0) is rewritten to declare `side` × `side`. */
async function jpegDeclaring(side: number): Promise<Buffer> {
  const canvas = createCanvas(16, 16);
  canvas.getContext('2d').fillRect(0, 0, 8, 8);
  const jpeg = Buffer.from(await canvas.encode('jpeg', 80));
  const sof = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
  jpeg.writeUInt16BE(side, sof + 5);
  jpeg.writeUInt16BE(side, sof + 7);
  return jpeg;
}

/** One page with no text, painted by one DCTDecode image XObject whose dictionary says `side` × `side`. */
function pdfWithImage(jpeg: Buffer, side: number): Buffer {
  const content = 'q 500 0 0 500 50 150 cm /Im1 Do Q';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /XObject << /Im1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    `<< /Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode /Length ${jpeg.length} >>\nstream\n${jpeg.toString('latin1')}\nendstream`,
  ];
  return pdfOfObjects(objects, 1);
}

/** In the parse thread, as CLEANING parses: a page without text is rendered, its images decoded, for OCR. */
async function parse(bytes: Buffer): Promise<string> {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  await writeFile(file, bytes);
  return parseToMarkdown(file, 'pdf', DEFAULT_PARSE_LIMITS);
}

it('refuses a PDF whose 16 × 16 JPEG declares a 30000 × 30000 frame as FILE_TOO_LARGE, before decoding it', async () => {
  await expect(parse(pdfWithImage(await jpegDeclaring(30_000), 16))).rejects.toMatchObject({
    code: 'FILE_TOO_LARGE',
  });
});

it('decodes a JPEG that is what it says: the page is read (and, holding no text, found empty)', async () => {
  await expect(parse(pdfWithImage(await jpegDeclaring(16), 16))).rejects.toMatchObject({ code: 'EMPTY_DOCUMENT' });
});
