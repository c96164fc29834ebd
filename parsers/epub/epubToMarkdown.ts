import path from 'node:path/posix';
import { permanentError } from '../../contracts/sluiceError';
import { htmlToMarkdown } from '../htmlToMarkdown';
import { UNLIMITED_MARKDOWN, type MarkdownBudget } from '../markdownBudget';
import { NO_IMAGES, type EmbeddedImages } from '../ooxml/embeddedImages';
import { assertNestedArchivesFit } from '../ooxml/nestedArchives';
import { parseXmlPart } from '../ooxml/xmlEvents';
import { ZipArchive } from '../ooxml/zipArchive';
import { pointPicturesAtParts } from './epubPictures';

/** The media types of a spine item whose text is read: the XHTML (and HTML) content documents. */
const CONTENT_TYPES = new Set(['application/xhtml+xml', 'text/html']);

/**
 * The package document's path (META-INF/container.xml's first rootfile), its manifest (id → path
 * and media type) and its spine (the reading order, as manifest ids).
 */
async function readPackage(
  archive: ZipArchive,
): Promise<{ manifest: Map<string, { href: string; type: string }>; spine: string[] }> {
  let opf: string | null = null;
  await parseXmlPart(archive, 'META-INF/container.xml', {
    open(name, a) {
      if (opf === null && name.endsWith('rootfile') && a['full-path']) opf = a['full-path'];
    },
  });
  const packagePath: string | null = opf;
  if (packagePath === null || !archive.has(packagePath))
    throw permanentError('CORRUPT_DOCUMENT', 'the EPUB has no package document (META-INF/container.xml)');
  const base = path.dirname(packagePath);
  const manifest = new Map<string, { href: string; type: string }>();
  const spine: string[] = [];
  await parseXmlPart(archive, packagePath, {
    open(name, a) {
      const local = name.slice(name.indexOf(':') + 1);
      if (local === 'item' && a.id && a.href)
        manifest.set(a.id, {
          href: path.normalize(path.join(base, decodeURIComponent(a.href))),
          type: a['media-type'] ?? '',
        });
      else if (local === 'itemref' && a.idref && a.linear !== 'no') spine.push(a.idref);
    },
  });
  return { manifest, spine };
}

/**
 * An EPUB (2 or 3): a ZIP package whose spine lists its content documents in reading order. Each
 * XHTML document of the spine becomes markdown as an HTML page does (htmlToMarkdown: headings,
 * lists, tables, code), in spine order; a document listed twice is read once. Pictures keep their
 * alt text, and are kept for description like a DOCX's when `images` is on (epubPictures.ts). The
 * archive's inflation limit, nesting check and the markdown budget bound it as for DOCX.
 */
export async function epubToMarkdown(
  filePath: string,
  maxUncompressedBytes: number,
  budget: MarkdownBudget = UNLIMITED_MARKDOWN(),
  images: EmbeddedImages = NO_IMAGES(),
): Promise<string> {
  const archive = await ZipArchive.open(filePath, maxUncompressedBytes);
  try {
    await assertNestedArchivesFit(archive, maxUncompressedBytes);
    const { manifest, spine } = await readPackage(archive);
    const parts: string[] = [];
    const seen = new Set<string>();
    for (const id of spine) {
      const item = manifest.get(id);
      if (!item || !CONTENT_TYPES.has(item.type) || seen.has(item.href) || !archive.has(item.href)) continue;
      seen.add(item.href);
      // One chapter at a time: its text is bounded by the archive's inflation limit.
      let html = '';
      await archive.readText(item.href, (text) => {
        html += text;
      });
      const markdown = pointPicturesAtParts(
        htmlToMarkdown(html).trim(),
        item.href,
        (part) => archive.has(part),
        images,
      );
      budget.add(markdown, 2);
      if (markdown !== '') parts.push(markdown);
    }
    return parts.join('\n\n');
  } finally {
    archive.close();
  }
}
