/** Typographic ligatures (ﬀ ﬁ ﬂ ﬃ ﬄ ﬅ ﬆ) that TeX and most typesetters emit as single glyphs. */
const LIGATURES: Record<string, string> = {
  '\ufb00': 'ff',
  '\ufb01': 'fi',
  '\ufb02': 'fl',
  '\ufb03': 'ffi',
  '\ufb04': 'ffl',
  '\ufb05': 'st',
  '\ufb06': 'st',
};

/**
 * TeX places an accent as a separate spacing glyph before the letter ("Br¨oker", "P´eter"), which
 * would split the word for search. Each maps to its combining mark; NFC then composes the letter.
 * The grave accent is left out: a backquote before a letter is far more often code (`date`).
 */
const SPACING_ACCENTS: Record<string, string> = {
  '\u00a8': '\u0308',
  '\u00b4': '\u0301',
  '\u02c6': '\u0302',
  '\u02dc': '\u0303',
  '\u00b8': '\u0327',
  '\u02c7': '\u030c',
  '\u02d8': '\u0306',
};

const ACCENT_BEFORE_LETTER = /([\u00a8\u00b4\u02c6\u02dc\u00b8\u02c7\u02d8])\s?([A-Za-z\u0131])/g;

/** Table-of-contents dot leaders ("Quote Marks . . . . . 60") are layout, not text. */
const DOT_LEADER = /(?:\s?\.){5,}\s*/g;

export function cleanPdfText(text: string): string {
  return text
    .replace(DOT_LEADER, ' ')
    .replace(/[\ufb00-\ufb06]/g, (ligature) => LIGATURES[ligature] ?? ligature)
    .replace(ACCENT_BEFORE_LETTER, (_match, accent: string, letter: string) => {
      // A dotless i carries the accent in TeX ("\'\i"): the composed letter is a plain í.
      const base = letter === '\u0131' ? 'i' : letter;
      return base + (SPACING_ACCENTS[accent] ?? '');
    })
    .normalize('NFC');
}

/**
 * A heading taken from a table-of-contents style line ends in its page number after dot leaders
 * ("2 Simple manipulations . . 8"): both go. Scanned from the end, without a pattern, so a long
 * run of dots costs one pass.
 */
export function stripPageReference(text: string): string {
  let end = text.trimEnd().length;
  let digits = 0;
  while (end > 0 && /[0-9ivxlc]/i.test(text.charAt(end - 1)) && digits < 6) {
    end--;
    digits++;
  }
  if (digits === 0) return text.trim();
  let dots = 0;
  let start = end;
  while (start > 0 && /[.\s]/.test(text.charAt(start - 1))) {
    if (text.charAt(start - 1) === '.') dots++;
    start--;
  }
  return dots >= 2 ? text.slice(0, start).trim() : text.trim();
}
