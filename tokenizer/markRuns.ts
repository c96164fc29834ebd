/**
 * Unicode's stream-safe bound (UAX #15): no script stacks more combining marks on one character;
 * only "Zalgo" text does. U+FF9E/U+FF9F are not marks but become ones under NFKC.
 */
const MAX_MARKS = 30;
const MARK = '[\\p{M}\\uff9e\\uff9f]';
/** Tried from the first mark of a run only: from every mark, runs just short of 30 cost 30² each. */
const RUN_AT_BOUND = new RegExp(`(?<!${MARK})${MARK}{${MAX_MARKS}}`, 'gu');
/**
 * The rest of a run is skipped in bounded steps: a `+` over a class that may match a surrogate
 * pair keeps a backtrack entry per character, and a run of millions overflows the regexp stack.
 */
const MORE_MARKS = new RegExp(`${MARK}{1,1024}`, 'uy');

/**
 * Cuts every run of combining marks to its first MAX_MARKS. NFKC sorts each run by combining
 * class in time quadratic in its length (a letter under 80,000 marks took 3 s), so tokenize()
 * caps runs before normalizing; the term of such text only loses marks.
 */
export function capMarkRuns(text: string): string {
  let capped = '';
  let copiedTo = 0;
  RUN_AT_BOUND.lastIndex = 0;
  for (let run = RUN_AT_BOUND.exec(text); run; run = RUN_AT_BOUND.exec(text)) {
    const keptEnd = run.index + run[0].length;
    let end = keptEnd;
    MORE_MARKS.lastIndex = end;
    while (MORE_MARKS.test(text)) end = MORE_MARKS.lastIndex;
    if (end > keptEnd) {
      capped += text.slice(copiedTo, keptEnd);
      copiedTo = end;
    }
    RUN_AT_BOUND.lastIndex = end;
  }
  return copiedTo === 0 ? text : capped + text.slice(copiedTo);
}
