import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stripPageMarkers } from '../../../chunker/chunkPages';
import { parseDocument, type ParsedDocument } from '../../../parsers/convertFile';
import type { SourceFileType } from '../../../parsers/detectFileType';
import { MAX_EMBEDDED_IMAGES } from '../../../parsers/ooxml/embeddedImages';
import { DEFAULT_PARSE_LIMITS } from '../../../parsers/parseLimits';
import { findImageRefs } from '../../../enrichment/markdownImages';
import { zipFixture, type ZipFixtureEntry } from '../../../testkit/fixtures/zipFixture';

// Pictures of DOCX and PPTX kept for image descriptions: a reference where each stands,
// the part it comes from listed, nothing at all unless asked.

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const NS =
  'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"';
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-office-images-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function parse(bytes: Buffer, type: SourceFileType, keepImages: boolean): Promise<ParsedDocument> {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.${type}`);
  await writeFile(file, bytes);
  return parseDocument(file, type, DEFAULT_PARSE_LIMITS, { keepImages });
}

/** A picture as Word writes it: an inline drawing whose docPr describes it, and a VML fallback copy. */
const drawing = (id: string, descr: string) =>
  `<w:r><mc:AlternateContent><mc:Choice><w:drawing><wp:inline><wp:docPr id="1" name="Picture 1" descr="${descr}"/><a:graphic><a:graphicData><pic:pic><pic:blipFill><a:blip r:embed="${id}"/></pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></mc:Choice><mc:Fallback><w:pict><a:blip r:embed="${id}"/></w:pict></mc:Fallback></mc:AlternateContent></w:r>`;

function docx(paragraphs: string[], rels: string, media: ZipFixtureEntry[]): Buffer {
  return zipFixture([
    {
      name: '[Content_Types].xml',
      data: '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
    },
    {
      name: 'word/document.xml',
      data: `<?xml version="1.0" encoding="UTF-8"?><w:document ${NS}><w:body>${paragraphs.map((p) => `<w:p>${p}</w:p>`).join('')}</w:body></w:document>`,
    },
    { name: 'word/_rels/document.xml.rels', data: `<Relationships>${rels}</Relationships>` },
    ...media,
  ]);
}

const rel = (id: string, target: string, external = false) =>
  `<Relationship Id="${id}" Type="${REL}/image" Target="${target}"${external ? ' TargetMode="External"' : ''}/>`;
const text = (t: string) => `<w:r><w:t>${t}</w:t></w:r>`;

describe('DOCX pictures', () => {
  const file = docx(
    [
      text('Before the chart.'),
      drawing('rId1', 'Sales by [quarter]'),
      text('A logo, a vector drawing and a linked photo:'),
      drawing('rId2', 'logo again') + drawing('rId3', 'vector') + drawing('rId4', 'linked'),
    ],
    rel('rId1', 'media/image1.png') +
      rel('rId2', 'media/image1.png') +
      rel('rId3', 'media/image2.emf') +
      rel('rId4', 'https://example.com/p.png', true),
    [
      { name: 'word/media/image1.png', data: PNG },
      { name: 'word/media/image2.emf', data: Buffer.from('emf') },
    ],
  );

  it('references each describable picture where it stands, once per part, with its description as alt', async () => {
    const parsed = await parse(file, 'docx', true);
    expect(parsed.images).toEqual([{ name: 'word-media-image1.png', part: 'word/media/image1.png' }]);
    expect(findImageRefs(parsed.markdown).map((r) => [r.alt, r.name])).toEqual([
      ['Sales by quarter', 'word-media-image1.png'],
      ['logo again', 'word-media-image1.png'],
    ]);
    expect(parsed.markdown.indexOf('![Sales')).toBeGreaterThan(parsed.markdown.indexOf('Before the chart.'));
    expect(parsed.markdown.indexOf('![Sales')).toBeLessThan(parsed.markdown.indexOf('A logo'));
    // Neither the EMF, the linked picture, nor the fallback copy becomes a reference.
    expect(parsed.markdown).not.toMatch(/emf|example\.com/);
  });

  it('keeps nothing unless asked: the markdown is what it was', async () => {
    const parsed = await parse(file, 'docx', false);
    expect(parsed.images).toEqual([]);
    expect(parsed.markdown).toBe('Before the chart.\n\nA logo, a vector drawing and a linked photo:');
  });

  it(`keeps at most ${MAX_EMBEDDED_IMAGES} pictures`, async () => {
    const count = MAX_EMBEDDED_IMAGES + 5;
    const ids = Array.from({ length: count }, (_, i) => `rId${i}`);
    const many = docx(
      ids.map((id) => drawing(id, id)),
      ids.map((id, i) => rel(id, `media/p${i}.jpeg`)).join(''),
      ids.map((_, i) => ({ name: `word/media/p${i}.jpeg`, data: PNG })),
    );
    const parsed = await parse(many, 'docx', true);
    expect(parsed.images).toHaveLength(MAX_EMBEDDED_IMAGES);
    expect(findImageRefs(parsed.markdown)).toHaveLength(MAX_EMBEDDED_IMAGES);
  });
});

describe('PPTX pictures', () => {
  const P = `xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="${REL}"`;
  const pptx = zipFixture([
    {
      name: 'ppt/presentation.xml',
      data: `<p:presentation ${P}><p:sldIdLst><p:sldId id="256" r:id="rId1"/></p:sldIdLst></p:presentation>`,
    },
    {
      name: 'ppt/_rels/presentation.xml.rels',
      data: `<Relationships><Relationship Id="rId1" Type="${REL}/slide" Target="slides/slide1.xml"/></Relationships>`,
    },
    {
      name: 'ppt/slides/slide1.xml',
      data: `<p:sld ${P}><p:cSld><p:spTree><p:sp><p:nvSpPr><p:cNvPr id="2" name="Title"/><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:txBody><a:p><a:r><a:t>Revenue</a:t></a:r></a:p></p:txBody></p:sp><p:pic><p:nvPicPr><p:cNvPr id="4" name="Picture 3" descr="Revenue bar chart"/></p:nvPicPr><p:blipFill><a:blip r:embed="rId2"/></p:blipFill></p:pic></p:spTree></p:cSld></p:sld>`,
    },
    {
      name: 'ppt/slides/_rels/slide1.xml.rels',
      data: `<Relationships>${rel('rId2', '../media/image7.gif')}</Relationships>`,
    },
    { name: 'ppt/media/image7.gif', data: Buffer.from('GIF89a') },
  ]);

  it("is a paragraph of its slide, named after its part, described by the picture's alt text", async () => {
    const parsed = await parse(pptx, 'pptx', true);
    expect(parsed.images).toEqual([{ name: 'ppt-media-image7.gif', part: 'ppt/media/image7.gif' }]);
    expect(stripPageMarkers(parsed.markdown).text).toBe(
      '# Slide 1: Revenue\n\n![Revenue bar chart](images/ppt-media-image7.gif)',
    );
    expect(stripPageMarkers((await parse(pptx, 'pptx', false)).markdown).text).toBe('# Slide 1: Revenue');
  });
});
