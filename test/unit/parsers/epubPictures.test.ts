import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseDocument } from '../../../parsers/convertFile';
import { DEFAULT_PARSE_LIMITS } from '../../../parsers/parseLimits';
import { findImageRefs } from '../../../enrichment/markdownImages';
import { zipFixture } from '../../../testkit/fixtures/zipFixture';

// An EPUB's pictures: their alt text kept as a caption, and, for a dataset that has pictures
// described, a reference to the package part each shows (as for DOCX).

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const CONTAINER =
  '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">' +
  '<rootfiles><rootfile full-path="OPS/book.opf" media-type="application/oebps-package+xml"/></rootfiles></container>';

function epubWithPictures(): Buffer {
  const opf =
    '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><manifest>' +
    '<item id="c" href="text/chapter.xhtml" media-type="application/xhtml+xml"/>' +
    '<item id="i" href="images/disk%20layout.png" media-type="image/png"/>' +
    '</manifest><spine><itemref idref="c"/></spine></package>';
  const body =
    '<h1>Partitions</h1><p>The layout:</p><p><img src="../images/disk%20layout.png" alt="Disk layout with root and swap"/></p>' +
    '<p><img src="../images/missing.png" alt="A picture the package lacks"/></p>' +
    '<p><img src="../images/diagram.svg" alt="A vector diagram"/></p>';
  return zipFixture([
    { name: 'mimetype', data: 'application/epub+zip' },
    { name: 'META-INF/container.xml', data: CONTAINER },
    { name: 'OPS/book.opf', data: opf },
    {
      name: 'OPS/text/chapter.xhtml',
      data: `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>C</title></head><body>${body}</body></html>`,
    },
    { name: 'OPS/images/disk layout.png', data: PNG },
    { name: 'OPS/images/diagram.svg', data: '<svg/>' },
  ]);
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-epub-pictures-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function parse(keepImages: boolean) {
  const file = path.join(dir, `${keepImages ? 'kept' : 'plain'}.epub`);
  await writeFile(file, epubWithPictures());
  return parseDocument(file, 'epub', DEFAULT_PARSE_LIMITS, { keepImages });
}

it('points a kept picture at its package part, and keeps every alt text', async () => {
  const parsed = await parse(true);
  expect(parsed.images).toEqual([{ name: 'OPS-images-disk-layout.png', part: 'OPS/images/disk layout.png' }]);
  expect(findImageRefs(parsed.markdown)).toEqual([
    expect.objectContaining({ alt: 'Disk layout with root and swap', name: 'OPS-images-disk-layout.png' }),
  ]);
  expect(parsed.markdown).toContain('A picture the package lacks');
  expect(parsed.markdown).toContain('A vector diagram');
});

it('keeps no picture unless asked, and the alt text stays as the caption', async () => {
  const parsed = await parse(false);
  expect(parsed.images).toEqual([]);
  expect(findImageRefs(parsed.markdown)).toEqual([]);
  expect(parsed.markdown).toContain('Disk layout with root and swap');
});
