const CJK_EDGE = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\u3000-\u303f\uff00-\uffef]/u;

/**
 * TeX hyphenates at line ends; CJK lines join without a space, everything else with one. Only the
 * last line is read and changed, so a paragraph costs the length of its lines, once.
 */
export function appendLine(pieces: string[], next: string): void {
  const previous = lastPiece(pieces);
  if (/\p{Ll}-$/u.test(previous) && /^\p{Ll}/u.test(next)) pieces[pieces.length - 1] = previous.slice(0, -1);
  else if (!(CJK_EDGE.test(previous.slice(-1)) && CJK_EDGE.test(next.charAt(0)))) pieces.push(' ');
  pieces.push(next);
}

/** The paragraph's last line: pieces always end with a line, never with a separator. */
export function lastPiece(pieces: string[]): string {
  return pieces[pieces.length - 1] ?? '';
}
