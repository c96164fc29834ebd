/**
 * Character error rate of OCR output against a page's own text layer: edit distance over the
 * reference length, after both are normalised the same way so only reading errors count, not
 * layout: NFKC (full-width forms, ligatures), typographic quotes and dashes as ASCII, bullets
 * dropped, and all whitespace removed (line breaks and spacing differ between a text layer and
 * any reading of its picture; CJK text has no spaces to count).
 */
export function normaliseForCer(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[‘’‚′]/g, "'")
    .replace(/[“”„″]/g, '"')
    .replace(/[‐‑‒–—―−]/g, '-')
    .replace(/[•·◦▪‣●○■□∙]/g, '')
    .replace(/\s+/g, '');
}

/** Levenshtein distance by code point, two rows: O(n·m) time, O(m) memory (benchmark pages only). */
export function editDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let previous = new Uint32Array(y.length + 1).map((_, j) => j);
  let current = new Uint32Array(y.length + 1);
  for (let i = 1; i <= x.length; i++) {
    current[0] = i;
    for (let j = 1; j <= y.length; j++) {
      const substitution = previous[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1);
      current[j] = Math.min(substitution, previous[j]! + 1, current[j - 1]! + 1);
    }
    [previous, current] = [current, previous];
  }
  return previous[y.length]!;
}

export interface CerTally {
  edits: number;
  referenceChars: number;
}

export function tallyCer(reference: string, hypothesis: string): CerTally {
  const ref = normaliseForCer(reference);
  return { edits: editDistance(ref, normaliseForCer(hypothesis)), referenceChars: [...ref].length };
}
