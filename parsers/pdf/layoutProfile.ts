import { bodySizeOf, headingLevelsOf, headingStyle, readsAsHeading } from './headingStyles';
import type { PdfLine } from './pdfLine';

/** What sampled pages tell about the whole document's typography. */
export interface LayoutProfile {
  bodySize: number;
  /** Heading style (headingStyles.ts: rounded size, bold or not) → markdown heading level (1 = largest). */
  headingLevels: ReadonlyMap<string, number>;
  /** pdf.js loadedNames of the bold fonts (boldFonts.ts). */
  boldFonts: ReadonlySet<string>;
  /** Rounded baselines where running headers and footers sit on most sampled pages. */
  headerYs: ReadonlySet<number>;
  footerYs: ReadonlySet<number>;
  /**
   * Running texts (runningKey) seen on two or more sampled pages at those baselines. A baseline
   * alone says nothing: on full pages the last body line sits at the same height every time.
   */
  runningTexts: ReadonlySet<string>;
}

const HEADING_MAX_CHARS = 150;
/** A baseline must recur on this share of sampled pages (and at least 3) to be a running header. */
const RUNNING_SHARE = 0.5;

/**
 * Built from a sample of pages spread over the document, before the streaming pass: the body size
 * is the size carrying the most characters, larger sizes set apart rank as heading levels
 * (headingStyles.ts), and lines that sit at the same top or bottom position on most pages are
 * running headers and footers.
 */
export function buildLayoutProfile(samples: PdfLine[][], boldFonts: ReadonlySet<string> = new Set()): LayoutProfile {
  const bodySize = bodySizeOf(samples);
  const headingLevels = headingLevelsOf(samples, bodySize, boldFonts);
  const headerYs = recurring(samples.map((lines) => lines[0]));
  const footerYs = recurring(samples.map((lines) => lines[lines.length - 1]));
  const repeated = samples.length < BAND_MIN_PAGES ? repeatedEdges(samples) : NO_EDGES;
  for (const y of repeated.headerYs) headerYs.add(y);
  for (const y of repeated.footerYs) footerYs.add(y);
  const runningTexts = recurringTexts(samples, headerYs, footerYs);
  for (const key of repeated.texts) runningTexts.add(key);
  return { bodySize, headingLevels, boldFonts, headerYs, footerYs, runningTexts };
}

/** Pages a band needs: below it, a running line is known from its text and height alone. */
const BAND_MIN_PAGES = 3;
const NO_EDGES = { headerYs: [], footerYs: [], texts: [] };

/**
 * A page's first or last line that recurs, same height and same text (digits aside), on the other
 * page of a two-page document, which is too short for a band. Longer documents leave this to the
 * bands: there a table's header row repeated atop each page would go from every page, the first too.
 */
function repeatedEdges(samples: PdfLine[][]): { headerYs: number[]; footerYs: number[]; texts: string[] } {
  const pagesByEdge = new Map<string, { top: boolean; y: number; key: string; pages: number }>();
  for (const lines of samples) {
    const edges = lines.length > 1 ? [0, lines.length - 1] : [0];
    for (const i of edges) {
      const line = lines[i];
      if (!line) continue;
      const edge = { top: i === 0, y: Math.round(line.y), key: runningKey(line.text) };
      const id = `${edge.top}|${edge.y}|${edge.key}`;
      const seen = pagesByEdge.get(id) ?? { ...edge, pages: 0 };
      seen.pages++;
      pagesByEdge.set(id, seen);
    }
  }
  const repeated = [...pagesByEdge.values()].filter((edge) => edge.pages >= 2);
  return {
    headerYs: repeated.filter((edge) => edge.top).map((edge) => edge.y),
    footerYs: repeated.filter((edge) => !edge.top).map((edge) => edge.y),
    texts: repeated.map((edge) => edge.key),
  };
}

/** Page numbers differ from page to page, the text around them does not: digits become one mark. */
export function runningKey(text: string): string {
  return text.replace(/\d+/g, '#').replace(/\s+/g, ' ').trim().toLowerCase();
}

/** Lines among the first or last two of a page whose baseline is a recurring header or footer band. */
export function edgeLines(
  lines: readonly PdfLine[],
  headerYs: ReadonlySet<number>,
  footerYs: ReadonlySet<number>,
): { line: PdfLine; top: boolean }[] {
  const edges: { line: PdfLine; top: boolean }[] = [];
  lines.forEach((line, i) => {
    if (i < 2 && nearBand(headerYs, line.y)) edges.push({ line, top: true });
    else if (i >= lines.length - 2 && nearBand(footerYs, line.y)) edges.push({ line, top: false });
  });
  return edges;
}

export function nearBand(ys: ReadonlySet<number>, y: number): boolean {
  const rounded = Math.round(y);
  return ys.has(rounded) || ys.has(rounded - 1) || ys.has(rounded + 1);
}

function recurringTexts(
  samples: PdfLine[][],
  headerYs: ReadonlySet<number>,
  footerYs: ReadonlySet<number>,
): Set<string> {
  const pagesByKey = new Map<string, number>();
  for (const lines of samples) {
    const keys = new Set(edgeLines(lines, headerYs, footerYs).map(({ line }) => runningKey(line.text)));
    for (const key of keys) pagesByKey.set(key, (pagesByKey.get(key) ?? 0) + 1);
  }
  return new Set([...pagesByKey].filter(([, pages]) => pages >= 2).map(([key]) => key));
}

export function headingLevel(profile: LayoutProfile, line: PdfLine): number | null {
  if (line.text.length > HEADING_MAX_CHARS || line.mono || !readsAsHeading(line, profile.bodySize, profile.boldFonts))
    return null;
  return profile.headingLevels.get(headingStyle(line, profile.boldFonts)) ?? null;
}

function recurring(edgeLines: (PdfLine | undefined)[]): Set<number> {
  const counts = new Map<number, number>();
  for (const line of edgeLines) if (line) counts.set(Math.round(line.y), (counts.get(Math.round(line.y)) ?? 0) + 1);
  const needed = Math.max(BAND_MIN_PAGES, Math.ceil(edgeLines.length * RUNNING_SHARE));
  return new Set([...counts].filter(([, count]) => count >= needed).map(([y]) => y));
}
