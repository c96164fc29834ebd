/**
 * Image references in parsed markdown, and the marked description a vision model's answer
 * becomes. Pure and linear: one pass with bounded alternatives, so no markdown can make it slow.
 */

/** `![alt](images/<name>)`, as the parsing service writes its images (alt and target bounded). */
const IMAGE_REF = /!\[([^\]\n]{0,300})\]\(images\/([A-Za-z0-9][A-Za-z0-9._-]{0,199})\)/g;

export interface ImageRef {
  /** The whole reference, as it stands in the markdown. */
  text: string;
  alt: string;
  /** The image's name in the task's images folder. */
  name: string;
}

export function findImageRefs(markdown: string): ImageRef[] {
  return [...markdown.matchAll(IMAGE_REF)].map((m) => ({ text: m[0], alt: m[1] ?? '', name: m[2] ?? '' }));
}

/** Replaces each reference whose name has a description; the others stay as they were. */
export function replaceImageRefs(markdown: string, descriptions: ReadonlyMap<string, string>): string {
  return markdown.replace(IMAGE_REF, (whole: string, alt: string, name: string) => {
    const description = descriptions.get(name);
    return description === undefined ? whole : describedImage(alt, description);
  });
}

export const MAX_DESCRIPTION_CHARS = 1000;

/**
 * The model's words as data: one line (no heading, list or page marker can start), without the
 * characters that open HTML or markdown links, cut to MAX_DESCRIPTION_CHARS; empty when nothing is left.
 */
export function cleanDescription(answer: string): string {
  const line = answer
    .slice(0, MAX_DESCRIPTION_CHARS * 4)
    .replace(/[<>[\]`|]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > MAX_DESCRIPTION_CHARS ? `${line.slice(0, MAX_DESCRIPTION_CHARS - 1)}…` : line;
}

/** Where the image stood: a quoted line that says a model wrote it. */
export function describedImage(alt: string, description: string): string {
  const label = cleanDescription(alt);
  return `> **Image description (written by a vision model${label ? `; image "${label}"` : ''}):** ${description}`;
}

/** The image's media type from its first bytes; null for a format vision endpoints do not take. */
export function imageMediaType(bytes: Uint8Array): string | null {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42)
    return 'image/webp';
  return null;
}
