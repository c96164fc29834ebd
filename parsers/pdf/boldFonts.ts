import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { boldCandidateFonts } from './headingStyles';
import type { PdfLine } from './pageLines';

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
    const page = await pdf.getPage(pageNumber);
    try {
      await page.getOperatorList();
      for (const font of unseen) {
        seen.add(font);
        if (page.commonObjs.has(font) && BOLD_NAME.test(fontName(page.commonObjs.get(font)))) bold.add(font);
      }
    } finally {
      page.cleanup();
    }
  }
  return bold;
}

function fontName(font: unknown): string {
  const name = (font as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : '';
}
