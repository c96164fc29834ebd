import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { boldCandidateFonts } from './headingStyles';
import type { PdfLine } from './pdfLine';

/** Weights a font's PostScript name gives for bold and heavier faces ("LiberationSans-Bold"). */
const BOLD_NAME = /bold|black|heavy|demi|semibold/i;

/**
 * pdf.js's loadedNames (PdfRun.font) of bold fonts among those that could set a heading at the
 * body's size (headingStyles.ts boldCandidateFonts). Text content names a font but not its weight;
 * the font's own name arrives with a page's operator list, which costs about half a text
 * extraction more, so only sampled pages using a candidate not yet looked up are read again. pdf.js keeps a font's loadedName for the whole
 * document (after cleanup too), so the answer holds for every page.
 */
export async function boldFonts(
  pdf: PDFDocumentProxy,
  samples: ReadonlyMap<number, readonly PdfLine[]>,
  beforeEachPage: () => void,
): Promise<Set<string>> {
  const candidates = boldCandidateFonts([...samples.values()]);
  const seen = new Set<string>();
  const bold = new Set<string>();
  for (const [pageNumber, lines] of samples) {
    if (seen.size === candidates.size) break;
    const unseen = new Set<string>();
    for (const line of lines)
      for (const run of line.runs ?? []) if (candidates.has(run.font) && !seen.has(run.font)) unseen.add(run.font);
    if (unseen.size === 0) continue;
    beforeEachPage();
    for (const font of unseen) seen.add(font);
    for (const font of await boldAmong(pdf, pageNumber, unseen)) bold.add(font);
  }
  return bold;
}

/**
 * A page whose text was read can still fail in its operator list (a broken image stream): its
 * fonts then count as regular, which costs bold headings their level, not the document.
 */
async function boldAmong(pdf: PDFDocumentProxy, pageNumber: number, fonts: ReadonlySet<string>): Promise<string[]> {
  try {
    const page = await pdf.getPage(pageNumber);
    try {
      await page.getOperatorList();
      return [...fonts].filter(
        (font) => page.commonObjs.has(font) && BOLD_NAME.test(fontName(page.commonObjs.get(font))),
      );
    } finally {
      page.cleanup();
    }
  } catch {
    return [];
  }
}

function fontName(font: unknown): string {
  const name = (font as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : '';
}
