import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { convertFile } from '../../../parsers/convertFile';
import { detectFileType } from '../../../parsers/detectFileType';
import { DEFAULT_PARSE_LIMITS } from '../../../parsers/parseLimits';
import { pandocOffice } from '../../../testkit/fixtures/pandocOffice';
import { zipFixture } from '../../../testkit/fixtures/zipFixture';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-epub-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function convert(bytes: Buffer, limits = DEFAULT_PARSE_LIMITS): Promise<string> {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.epub`);
  await writeFile(file, bytes);
  return convertFile(file, 'epub', limits);
}

const CONTAINER =
  '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">' +
  '<rootfiles><rootfile full-path="OPS/book.opf" media-type="application/oebps-package+xml"/></rootfiles></container>';

const page = (title: string, body: string) =>
  `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>${title}</title></head><body>${body}</body></html>`;

/** A hand-made EPUB 3 whose spine order differs from its manifest's, with a non-linear note and a stylesheet. */
function handMade(): Buffer {
  const opf =
    '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><manifest>' +
    '<item id="a" href="text/one.xhtml" media-type="application/xhtml+xml"/>' +
    '<item id="b" href="text/two%20b.xhtml" media-type="application/xhtml+xml"/>' +
    '<item id="note" href="text/note.xhtml" media-type="application/xhtml+xml"/>' +
    '<item id="css" href="style.css" media-type="text/css"/>' +
    '</manifest><spine><itemref idref="b"/><itemref idref="note" linear="no"/><itemref idref="a"/><itemref idref="b"/><itemref idref="css"/></spine></package>';
  return zipFixture([
    { name: 'mimetype', data: 'application/epub+zip' },
    { name: 'META-INF/container.xml', data: CONTAINER },
    { name: 'OPS/book.opf', data: opf },
    { name: 'OPS/text/one.xhtml', data: page('One', '<h1>Chapter one</h1><p>First words.</p>') },
    { name: 'OPS/text/two b.xhtml', data: page('Two', '<h1>Chapter two</h1><p>Second words.</p>') },
    { name: 'OPS/text/note.xhtml', data: page('Note', '<p>A footnote page.</p>') },
    { name: 'OPS/style.css', data: 'p { color: red }' },
  ]);
}

describe('EPUB', () => {
  it('reads a real EPUB (pandoc) chapter by chapter in reading order, with headings, lists, code and tables', async () => {
    const epub = pandocOffice(
      '# Install\n\nRun the installer.\n\n## Partitions\n\n- root\n- swap\n\n# Upgrade\n\nUse `apt full-upgrade`.\n\n| package | version |\n|---|---|\n| apt | 2.6 |\n',
      'epub',
      {},
      ['--metadata', 'title=Admin Guide'],
    );
    expect(detectFileType(epub.subarray(0, 8192), 'guide.bin')).toBe('epub');
    const markdown = await convert(epub);
    const order = [
      '# Admin Guide',
      '# Install',
      'Run the installer.',
      '## Partitions',
      'root',
      '# Upgrade',
      'apt full-upgrade',
      '| apt | 2.6 |',
    ];
    const at = order.map((text) => markdown.indexOf(text));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((x, y) => x - y)).toEqual(at);
  });

  it('follows the spine, not the manifest: linear items once each, non-linear ones and stylesheets left out', async () => {
    expect(await convert(handMade())).toBe('# Chapter two\n\nSecond words.\n\n# Chapter one\n\nFirst words.');
  });

  it('refuses a package without its package document as CORRUPT_DOCUMENT', async () => {
    const broken = zipFixture([
      { name: 'mimetype', data: 'application/epub+zip' },
      { name: 'OPS/text/one.xhtml', data: page('One', '<p>x</p>') },
    ]);
    await expect(convert(broken)).rejects.toMatchObject({ code: 'CORRUPT_DOCUMENT' });
  });

  it('stops a chapter that inflates past the limit as FILE_TOO_LARGE', async () => {
    const big = zipFixture([
      { name: 'mimetype', data: 'application/epub+zip' },
      { name: 'META-INF/container.xml', data: CONTAINER },
      {
        name: 'OPS/book.opf',
        data: '<package><manifest><item id="a" href="a.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="a"/></spine></package>',
      },
      { name: 'OPS/a.xhtml', data: page('A', `<p>${'word '.repeat(400_000)}</p>`) },
    ]);
    await expect(convert(big, { ...DEFAULT_PARSE_LIMITS, maxUncompressedBytes: 1_000_000 })).rejects.toMatchObject({
      code: 'FILE_TOO_LARGE',
    });
  });
});
