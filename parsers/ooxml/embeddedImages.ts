/**
 * The pictures of a DOCX or PPTX, kept for a dataset that has them described (enrichment option
 * `imageDescriptions`). The parser writes a reference `![alt](images/<name>)` where a picture
 * stands, as the parsing service does, and lists the package part each name comes from;
 * CLEANING copies those parts into the task's images folder (activities/stages/embeddedImages.ts). Only
 * the formats a vision endpoint takes are referenced (by the part's extension; CLEANING checks
 * the bytes); EMF, WMF and SVG pictures are left out, as before.
 */

export interface EmbeddedImage {
  /** The file name in the task's images folder, as the reference names it. */
  name: string;
  /** The package part holding the picture (`word/media/image1.png`). */
  part: string;
}

/** A document with more pictures than this has the rest left out: each one may cost a model call. */
export const MAX_EMBEDDED_IMAGES = 200;

const DESCRIBABLE = /\.(png|jpe?g|gif|webp)$/i;
/** What the reference's alt text may hold: what markdownImages' pattern reads back, shorter. */
const MAX_ALT_CHARS = 200;

export class EmbeddedImages {
  private readonly byPart = new Map<string, EmbeddedImage>();
  private readonly names = new Set<string>();

  constructor(readonly enabled: boolean) {}

  /** The reference to write for the picture in `part`; null when pictures are not kept or this one is not. */
  reference(part: string, alt: string): string | null {
    if (!this.enabled || !DESCRIBABLE.test(part)) return null;
    let image = this.byPart.get(part);
    if (!image) {
      if (this.byPart.size >= MAX_EMBEDDED_IMAGES) return null;
      const flat = imageName(part);
      image = { name: this.names.has(flat) ? `${this.byPart.size}-${flat}` : flat, part };
      this.byPart.set(part, image);
      this.names.add(image.name);
    }
    return `![${altText(alt)}](images/${image.name})`;
  }

  list(): EmbeddedImage[] {
    return [...this.byPart.values()];
  }
}

/** Never kept: the parsers' default outside CLEANING. */
export const NO_IMAGES = (): EmbeddedImages => new EmbeddedImages(false);

/** `word/media/image1.png` → `word-media-image1.png`: one flat, safe name per part. */
function imageName(part: string): string {
  const flat = part.replace(/[^A-Za-z0-9._-]+/g, '-');
  return flat.slice(Math.max(0, flat.length - 180)).replace(/^[^A-Za-z0-9]+/, '') || 'image';
}

function altText(alt: string): string {
  return alt
    .replace(/[\]\n\r[]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, MAX_ALT_CHARS);
}
