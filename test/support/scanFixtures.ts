import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createCanvas, loadImage } from '@napi-rs/canvas';

/** The committed scanned samples (scripts/make-ocr-samples.sh): two guide pages each, and one page as PNG. */
export const SCANNED_SAMPLES = {
  englishPdf: path.resolve(__dirname, '..', '..', 'samples', 'scanned-debmake-guide.en.pdf'),
  chinesePdf: path.resolve(__dirname, '..', '..', 'samples', '扫描-debmake-指南.zh-cn.pdf'),
  englishPng: path.resolve(__dirname, '..', '..', 'samples', 'scanned-page.en.png'),
};

/** A white page with nothing on it, as PNG: what OCR must find nothing in. */
export function blankPng(width = 600, height = 800): Buffer {
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  return canvas.toBuffer('image/png');
}

/** The sample page's PNG as a greyscale JPEG, with its size: what a scanner's PDF embeds. */
export async function scannedPageJpeg(): Promise<{ jpeg: Buffer; width: number; height: number }> {
  const image = await loadImage(readFileSync(SCANNED_SAMPLES.englishPng));
  const canvas = createCanvas(image.width, image.height);
  canvas.getContext('2d').drawImage(image, 0, 0);
  return { jpeg: canvas.toBuffer('image/jpeg', 85), width: image.width, height: image.height };
}

type Scan = { jpeg: Buffer; width: number; height: number };

/**
 * A two-page PDF as a scanner-and-typesetter mix gives them: page 1 has a real text layer
 * (Helvetica lines), page 2 is one full-page JPEG and no text.
 */
export function mixedPdf(textLines: string[], scan: Scan): Buffer {
  return pdfOfPages([{ text: textLines }, { scan }]);
}

/** `pages` image-only pages, each the same scan: a long scanned document (one image object, shared). */
export function scannedPdf(pages: number, scan: Scan): Buffer {
  return pdfOfPages(Array.from({ length: pages }, () => ({ scan })));
}

/**
 * Writes a PDF object by object with a correct xref table: text pages in Helvetica, scanned pages
 * as one full-page image (the JPEG's bytes as a DCTDecode stream, written once and shared).
 */
function pdfOfPages(pages: ({ text: string[] } | { scan: Scan })[]): Buffer {
  const objects: Buffer[] = [];
  const add = (body: Buffer | string): number =>
    objects.push(typeof body === 'string' ? Buffer.from(body, 'latin1') : body);
  const catalog = add('');
  const pagesRef = add('');
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const images = new Map<Scan, number>();
  const kids: number[] = [];
  for (const page of pages) {
    if ('text' in page) {
      const content = ['BT /F1 11 Tf 72 740 Td 14 TL', ...page.text.map((line) => `(${escapePdf(line)}) '`), 'ET'];
      const contents = add(stream('', Buffer.from(content.join('\n'), 'latin1')));
      kids.push(
        add(
          `<< /Type /Page /Parent ${pagesRef} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${contents} 0 R >>`,
        ),
      );
      continue;
    }
    const { scan } = page;
    let image = images.get(scan);
    if (image === undefined) {
      image = add(
        stream(
          `/Type /XObject /Subtype /Image /Width ${scan.width} /Height ${scan.height} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode`,
          scan.jpeg,
        ),
      );
      images.set(scan, image);
    }
    const contents = add(stream('', Buffer.from('q 612 0 0 792 0 0 cm /Im1 Do Q', 'latin1')));
    kids.push(
      add(
        `<< /Type /Page /Parent ${pagesRef} 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im1 ${image} 0 R >> >> /Contents ${contents} 0 R >>`,
      ),
    );
  }
  objects[catalog - 1] = Buffer.from(`<< /Type /Catalog /Pages ${pagesRef} 0 R >>`);
  objects[pagesRef - 1] = Buffer.from(
    `<< /Type /Pages /Kids [${kids.map((kid) => `${kid} 0 R`).join(' ')}] /Count ${kids.length} >>`,
  );
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  objects.forEach((body, i) => {
    offsets.push(length);
    const object = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    parts.push(object);
    length += object.length;
  });
  const xref = [
    'xref',
    `0 ${objects.length + 1}`,
    '0000000000 65535 f ',
    ...offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n `),
    'trailer',
    `<< /Size ${objects.length + 1} /Root ${catalog} 0 R >>`,
    'startxref',
    String(length),
    '%%EOF\n',
  ].join('\n');
  parts.push(Buffer.from(xref, 'latin1'));
  return Buffer.concat(parts);
}

function stream(dictionary: string, bytes: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`<< ${dictionary} /Length ${bytes.length} >>\nstream\n`, 'latin1'),
    bytes,
    Buffer.from('\nendstream', 'latin1'),
  ]);
}

function escapePdf(text: string): string {
  return text.replace(/[\\()]/g, (c) => `\\${c}`);
}
