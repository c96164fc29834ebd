import { parseXmlPart } from './xmlEvents';
import type { ZipArchive } from './zipArchive';

export interface DocxStyles {
  /** Paragraph style id → heading level 1–6. */
  headingLevels: Map<string, number>;
  /** numId → whether level-0 items are bullets (else numbered). */
  bulletLists: Map<string, boolean>;
}

/**
 * Heading styles are found by name ("heading 2", "Title") or outline level, not by id: ids are
 * localized (Word writes "berschrift2" in German documents) while names and levels are not.
 */
export async function readDocxStyles(archive: ZipArchive): Promise<DocxStyles> {
  const headingLevels = new Map<string, number>();
  let styleId: string | null = null;
  await parseXmlPart(archive, 'word/styles.xml', {
    open(name, a) {
      if (name === 'w:style') styleId = a['w:type'] === 'paragraph' ? (a['w:styleId'] ?? null) : null;
      if (!styleId) return;
      const value = a['w:val'] ?? '';
      const byName = name === 'w:name' ? /^heading (\d)$/i.exec(value) : null;
      if (byName) headingLevels.set(styleId, Math.min(Number(byName[1]), 6));
      else if (name === 'w:name' && /^title$/i.test(value)) headingLevels.set(styleId, 1);
      else if (name === 'w:outlineLvl' && !headingLevels.has(styleId) && Number(value) < 9)
        headingLevels.set(styleId, Math.min(Number(value) + 1, 6));
    },
  });
  return { headingLevels, bulletLists: await readBulletLists(archive) };
}

async function readBulletLists(archive: ZipArchive): Promise<Map<string, boolean>> {
  const abstractBullets = new Map<string, boolean>();
  const numToAbstract = new Map<string, string>();
  let abstractId: string | null = null;
  let level: string | null = null;
  let numId: string | null = null;
  await parseXmlPart(archive, 'word/numbering.xml', {
    open(name, a) {
      if (name === 'w:abstractNum') abstractId = a['w:abstractNumId'] ?? null;
      else if (name === 'w:lvl') level = a['w:ilvl'] ?? null;
      else if (name === 'w:numFmt' && abstractId !== null && level === '0')
        abstractBullets.set(abstractId, a['w:val'] === 'bullet');
      else if (name === 'w:num') numId = a['w:numId'] ?? null;
      else if (name === 'w:abstractNumId' && numId !== null && a['w:val']) numToAbstract.set(numId, a['w:val']);
    },
  });
  const bullets = new Map<string, boolean>();
  for (const [num, abstract] of numToAbstract) bullets.set(num, abstractBullets.get(abstract) ?? true);
  return bullets;
}
