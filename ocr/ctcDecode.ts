export interface DecodedLine {
  text: string;
  /** Mean of the kept characters' probabilities, 0..1 (0 when nothing was read). */
  confidence: number;
}

/**
 * Greedy CTC decoding of one line: the most likely class at each time step, repeats collapsed,
 * blanks (class 0) dropped. `probs` holds `steps` rows of `classes` probabilities starting at
 * `offset`; class i ≥ 1 is `alphabet[i - 1]`. Linear in steps × classes.
 */
export function ctcDecode(
  probs: Float32Array,
  offset: number,
  steps: number,
  classes: number,
  alphabet: readonly string[],
): DecodedLine {
  const chars: string[] = [];
  let confidence = 0;
  let previous = 0;
  for (let t = 0; t < steps; t++) {
    const row = offset + t * classes;
    let best = 0;
    let bestProb = probs[row]!;
    for (let c = 1; c < classes; c++) {
      const p = probs[row + c]!;
      if (p > bestProb) {
        best = c;
        bestProb = p;
      }
    }
    if (best !== 0 && best !== previous) {
      chars.push(alphabet[best - 1] ?? '');
      confidence += bestProb;
    }
    previous = best;
  }
  return { text: chars.join(''), confidence: chars.length === 0 ? 0 : confidence / chars.length };
}
