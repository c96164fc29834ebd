// Control and format characters, lone surrogates, line and paragraph separators
// (contracts/markdownText.ts): a bidi override or a zero-width character makes a name display as
// another (`invoice‮fdp.exe` reads as `invoiceexe.pdf`) wherever it is listed or logged.
import { UNPRINTABLE } from '../contracts/markdownText';

const MAX_FILE_NAME_CODE_POINTS = 255;

/** The name a file is shown and listed under (never used in a key): its last path segment, printable, ≤ 255 code points. */
export function cleanFileName(raw: string | undefined): string {
  const base = (raw ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned = base.replace(UNPRINTABLE, '').trim();
  // Cut by code point: a cut by UTF-16 unit can split a surrogate pair and leave half a character.
  let cut = '';
  let codePoints = 0;
  for (const ch of cleaned) {
    if (codePoints === MAX_FILE_NAME_CODE_POINTS) break;
    cut += ch;
    codePoints += 1;
  }
  return cut.trim() || 'upload';
}
