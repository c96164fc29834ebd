import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stripPageMarkers } from '../../../chunker/chunkPages';
import { convertFile } from '../../../parsers/convertFile';
import { detectFileType, type SourceFileType } from '../../../parsers/detectFileType';
import { DEFAULT_PARSE_LIMITS } from '../../../parsers/parseLimits';
import { pandocOffice } from '../../../testkit/fixtures/pandocOffice';
import { zipFixture } from '../../../testkit/fixtures/zipFixture';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-odf-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function convertMarked(bytes: Buffer, type: SourceFileType): Promise<string> {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.${type}`);
  await writeFile(file, bytes);
  return convertFile(file, type, DEFAULT_PARSE_LIMITS);
}
const convert = async (bytes: Buffer, type: SourceFileType) => stripPageMarkers(await convertMarked(bytes, type)).text;

const NS =
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ' +
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" ' +
  'xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"';

function odf(mimetype: string, body: string, extra: { name: string; data: string }[] = []): Buffer {
  return zipFixture([
    { name: 'mimetype', data: `application/vnd.oasis.opendocument.${mimetype}`, stored: true },
    {
      name: 'content.xml',
      data: `<office:document-content ${NS}><office:body>${body}</office:body></office:document-content>`,
    },
    ...extra,
  ]);
}

const cell = (text: string, attrs = '') => `<table:table-cell${attrs}><text:p>${text}</text:p></table:table-cell>`;

describe('ODT', () => {
  it('reads a real ODT (pandoc): headings at their level, a footnote after its paragraph, nested lists, tables', async () => {
    const odt = pandocOffice(
      '# Install\n\nRun the *installer* and choose a disk.[^1]\n\n[^1]: Any disk works.\n\n## Partitions\n\n- root\n    - boot\n- swap\n\n| package | version |\n|---|---|\n| apt | 2.6 |\n',
      'odt',
      {},
    );
    expect(detectFileType(odt.subarray(0, 8192), 'notes.bin')).toBe('odt');
    expect(await convert(odt, 'odt')).toBe(
      '# Install\n\nRun the installer and choose a disk.\n\nAny disk works.\n\n## Partitions\n\n- root\n  - boot\n- swap\n\n| package | version |\n| --- | --- |\n| apt | 2.6 |',
    );
  });

  it('counts text:s spaces within a bound, leaves comments out, and refuses an encrypted package', async () => {
    const body =
      '<office:text><text:p>a<text:s text:c="3"/>b<text:s text:c="999999999"/>c<office:annotation><text:p>a comment</text:p></office:annotation></text:p></office:text>';
    expect(await convert(odf('text', body), 'odt')).toBe('a b c');
    const encrypted = odf('text', body, [
      {
        name: 'META-INF/manifest.xml',
        data: '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="content.xml"><manifest:encryption-data/></manifest:file-entry></manifest:manifest>',
      },
    ]);
    await expect(convertMarked(encrypted, 'odt')).rejects.toMatchObject({ code: 'ENCRYPTED_DOCUMENT' });
    await expect(
      convertMarked(zipFixture([{ name: 'mimetype', data: 'application/vnd.oasis.opendocument.text' }]), 'odt'),
    ).rejects.toMatchObject({ code: 'CORRUPT_DOCUMENT' });
  });
});

describe('ODS', () => {
  it('renders each sheet as a page with a pipe table, repeated cells laid out and trailing empties dropped', async () => {
    const sheet1 =
      '<table:table table:name="Stock">' +
      `<table:table-row>${cell('Item')}${cell('Qty')}<table:table-cell table:number-columns-repeated="16000"/></table:table-row>` +
      `<table:table-row>${cell('bolt')}${cell('12')}</table:table-row>` +
      `<table:table-row table:number-rows-repeated="2">${cell('nut')}<table:table-cell table:number-columns-repeated="2"/>${cell('x')}</table:table-row>` +
      '<table:table-row table:number-rows-repeated="1048570"><table:table-cell table:number-columns-repeated="16384"/></table:table-row>' +
      '</table:table>';
    const sheet2 = `<table:table table:name="Notes"><table:table-row>${cell('ok')}</table:table-row></table:table>`;
    const ods = odf('spreadsheet', `<office:spreadsheet>${sheet1}${sheet2}</office:spreadsheet>`);
    expect(detectFileType(ods.subarray(0, 8192), 'book.bin')).toBe('ods');
    const marked = await convertMarked(ods, 'ods');
    expect(stripPageMarkers(marked).starts.map((s) => s.page)).toEqual([1, 2]);
    expect(stripPageMarkers(marked).text).toBe(
      '# Stock\n\n| Item | Qty |  |  |\n| --- | --- | --- | --- |\n| bolt | 12 |  |  |\n| nut |  |  | x |\n| nut |  |  | x |\n\n# Notes\n\n| ok |\n| --- |',
    );
  });

  it('refuses a sheet that spreads a few values over millions of cells as FILE_TOO_LARGE', async () => {
    const sparse = Array.from(
      { length: 300 },
      () => `<table:table-row><table:table-cell table:number-columns-repeated="16000"/>${cell('v')}</table:table-row>`,
    ).join('');
    const ods = odf(
      'spreadsheet',
      `<office:spreadsheet><table:table table:name="S">${sparse}</table:table></office:spreadsheet>`,
    );
    await expect(convertMarked(ods, 'ods')).rejects.toMatchObject({ code: 'FILE_TOO_LARGE' });
  });
});

describe('ODP', () => {
  it('renders each slide as a page: its title, text, tables and speaker notes', async () => {
    const slide = (name: string, title: string, body: string, notes: string) =>
      `<draw:page draw:name="${name}"><draw:frame presentation:class="title"><draw:text-box><text:p>${title}</text:p></draw:text-box></draw:frame>` +
      `<draw:frame presentation:class="outline"><draw:text-box>${body}</draw:text-box></draw:frame>` +
      `<presentation:notes><draw:frame><draw:text-box><text:p>${notes}</text:p></draw:text-box></draw:frame></presentation:notes></draw:page>`;
    const body =
      '<office:presentation>' +
      slide(
        'p1',
        'Quarterly review',
        '<text:list><text:list-item><text:p>Revenue up</text:p></text:list-item></text:list>',
        'Mention the region.',
      ) +
      slide(
        'p2',
        'Next steps',
        `<text:p>Hire</text:p><table:table><table:table-row>${cell('a')}${cell('b')}</table:table-row></table:table>`,
        '',
      ) +
      '</office:presentation>';
    const odp = odf('presentation', body);
    expect(detectFileType(odp.subarray(0, 8192), 'deck.bin')).toBe('odp');
    const marked = await convertMarked(odp, 'odp');
    expect(stripPageMarkers(marked).starts.map((s) => s.page)).toEqual([1, 2]);
    expect(stripPageMarkers(marked).text).toBe(
      '# Slide 1: Quarterly review\n\n- Revenue up\n\nNotes: Mention the region.\n\n# Slide 2: Next steps\n\nHire\n\n| a | b |\n| --- | --- |',
    );
  });
});
