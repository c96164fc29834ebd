import path from 'node:path/posix';
import type { EmbeddedImages } from '../ooxml/embeddedImages';

/**
 * A picture as a chapter's markdown writes it (parsers/html/inlineRules.ts imageMarkdown): alt,
 * a relative target without spaces or brackets, an optional title. Every part bounded, so a
 * chapter of stray `![` costs a bounded scan at each.
 */
const CHAPTER_PICTURE = /!\[([^\]\n]{0,300})\]\(([^()\s<>"\\:]{1,500})(?: "[^"\n]{0,300}")?\)/g;

/**
 * A chapter's pictures pointed at the package parts they show, for a dataset that has pictures
 * described (the vision model's description then stands where the picture stood, as for DOCX).
 * A picture that is not kept (pictures off, not a format a vision endpoint takes, not in the
 * package, past the cap) stays as the chapter wrote it: its alt text is its caption.
 */
export function pointPicturesAtParts(
  markdown: string,
  chapterPath: string,
  has: (part: string) => boolean,
  images: EmbeddedImages,
): string {
  if (!images.enabled) return markdown;
  return markdown.replace(CHAPTER_PICTURE, (whole: string, alt: string, target: string) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(target.split('#')[0] ?? '');
    } catch {
      return whole;
    }
    const part = path.normalize(path.join(path.dirname(chapterPath), decoded));
    if (part.startsWith('..') || !has(part)) return whole;
    return images.reference(part, alt.replace(/\\(.)/g, '$1')) ?? whole;
  });
}
