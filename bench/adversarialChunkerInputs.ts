/**
 * Generated hostile text for the chunker, tokenizer and sparse-weighting paths, each of about n
 * characters (or n lines, rows, levels, as its comment says). The adversarial unit tests check
 * what each one chunks or tokenizes to; the adversarial benchmark times each at n and 2n.
 */

/** A list of n lines 0..n-1, built by index. */
function lines(n: number, line: (i: number) => string): string {
  return Array.from({ length: n }, (_, i) => line(i)).join('\n');
}

/** One word of n letters. */
export function giantWord(n: number): string {
  return `a${'x'.repeat(n)}z`;
}

/** n sentence stops with no space after any of them (the sentence separator's worst case). */
export function dotRun(n: number): string {
  return '.'.repeat(n);
}

/** n characters cycling through sentence stops, closing quotes, clause marks and CJK stops. */
export function punctuationRun(n: number): string {
  const marks = '.!?")],;:。！？，、…';
  return Array.from({ length: n }, (_, i) => marks[i % marks.length]).join('');
}

/** Two words around n spaces. */
export function spaceRun(n: number): string {
  return `opening${' '.repeat(n)}closing`;
}

/** A heading whose title is followed by n spaces and then more text (or a closing sequence). */
export function spacedHeading(n: number, tail = '#x'): string {
  return `# a${' '.repeat(n)}${tail}\nbody`;
}

/** n heading lines of every level, each with a one-word body. */
export function headingLines(n: number): string {
  return lines(n, (i) => `${'#'.repeat(1 + (i % 6))} h${i}\nbody ${i}`);
}

/** n heading marks in one line (too many for a heading), then a word. */
export function headingMarks(n: number): string {
  return `${'#'.repeat(n)} end`;
}

/** A line of n backticks ending in a line separator (U+2028), which `.` in a pattern never matches. */
export function backtickLine(n: number): string {
  return `${'`'.repeat(n)}\u2028after`;
}

/** A quote nested n levels deep (`> > > … deep`), then the same depth over two lines. */
export function deepBlockquote(n: number): string {
  const depth = '> '.repeat(n);
  return `${depth}deep\n${depth}deeper`;
}

/** n list items, each nested one level deeper than the one before, up to 1,000 levels and again. */
export function nestedList(n: number): string {
  return lines(n, (i) => `${'  '.repeat(i % 1000)}- item ${i}`);
}

/** n lines of text with no blank line between them: one paragraph. */
export function linesWithoutBlank(n: number): string {
  return lines(n, (i) => `line ${i} of the paragraph`);
}

/** A pipe table with a header and one row of n cells. */
export function wideTableRow(n: number): string {
  const cells = Array.from({ length: n }, (_, i) => `c${i}`).join(' | ');
  return `| key | value |\n| --- | --- |\n| ${cells} |`;
}

/** A pipe table with a header and one cell of n short sentences. */
export function giantTableCell(n: number): string {
  return `| key | value |\n| --- | --- |\n| only | ${'Fact. '.repeat(n).trim()} |`;
}

/** A pipe table with a header and n rows. */
export function tableRows(n: number): string {
  return `| key | value |\n| --- | --- |\n${lines(n, (i) => `| ${i} | name ${i} |`)}`;
}

/** A fenced code block of one line of n short statements. */
export function giantCodeLine(n: number): string {
  return `\`\`\`js\n${'x = 1; '.repeat(n)}\n\`\`\``;
}

/** n digits. */
export function digitRun(n: number): string {
  return '7'.repeat(n);
}

/** One Han character n times: a Chinese run without punctuation for the word segmenter. */
export function hanRun(n: number): string {
  return '数'.repeat(n);
}

/** Dictionary words run together for about n characters: Chinese without punctuation. */
export function chineseCompoundRun(n: number): string {
  return '数据库管理系统'.repeat(Math.ceil(n / 7));
}

/** n identifier parts joined by hyphens: one "word" that the tokenizer keeps extending. */
export function joinedIdentifier(n: number): string {
  return `${'x-'.repeat(Math.ceil(n / 2))} pg_stat_activity`;
}

/** A letter carrying n combining marks of alternating classes, which NFKC must reorder. */
export function stackedMarks(n: number): string {
  return `e${'\u0301\u0316'.repeat(Math.ceil(n / 2))} café`;
}

/** n emoji: surrogate pairs that a cut must not split. */
export function emojiRun(n: number): string {
  return '\u{1F600}'.repeat(Math.ceil(n / 2));
}

/** About n characters of distinct words (none a stop word): as many sparse terms as the text can hold. */
export function distinctWords(n: number): string {
  return Array.from({ length: Math.ceil(n / 8) }, (_, i) => `q${i.toString(36)}`).join(' ');
}

export interface AdversarialTextInput {
  name: string;
  /** chunkMarkdown with the worker's default options, tokenize, or sparse weighting of its terms. */
  path: 'chunk' | 'tokenize' | 'sparse';
  make: (n: number) => string;
  /** A size that the fixed code handles in a few hundred milliseconds; benchmarks scale from it. */
  n: number;
}

export const ADVERSARIAL_TEXT_INPUTS: readonly AdversarialTextInput[] = [
  { name: 'chunk: giant word', path: 'chunk', make: giantWord, n: 4_000_000 },
  { name: 'chunk: dot run', path: 'chunk', make: dotRun, n: 2_000_000 },
  { name: 'chunk: punctuation run', path: 'chunk', make: punctuationRun, n: 1_000_000 },
  { name: 'chunk: space run', path: 'chunk', make: spaceRun, n: 6_000_000 },
  { name: 'chunk: spaced heading', path: 'chunk', make: (n) => spacedHeading(n), n: 8_000_000 },
  { name: 'chunk: spaced heading, closing #s', path: 'chunk', make: (n) => spacedHeading(n, '###'), n: 8_000_000 },
  { name: 'chunk: heading lines', path: 'chunk', make: headingLines, n: 50_000 },
  { name: 'chunk: heading marks', path: 'chunk', make: headingMarks, n: 2_000_000 },
  { name: 'chunk: backtick line', path: 'chunk', make: backtickLine, n: 2_000_000 },
  { name: 'chunk: deep blockquote', path: 'chunk', make: deepBlockquote, n: 800_000 },
  { name: 'chunk: nested list', path: 'chunk', make: nestedList, n: 4_000 },
  { name: 'chunk: lines without a blank', path: 'chunk', make: linesWithoutBlank, n: 100_000 },
  { name: 'chunk: wide table row', path: 'chunk', make: wideTableRow, n: 300_000 },
  { name: 'chunk: giant table cell', path: 'chunk', make: giantTableCell, n: 300_000 },
  { name: 'chunk: table rows', path: 'chunk', make: tableRows, n: 150_000 },
  { name: 'chunk: giant code line', path: 'chunk', make: giantCodeLine, n: 200_000 },
  { name: 'chunk: han run', path: 'chunk', make: hanRun, n: 2_000_000 },
  { name: 'tokenize: giant word', path: 'tokenize', make: giantWord, n: 6_000_000 },
  { name: 'tokenize: digit run', path: 'tokenize', make: digitRun, n: 6_000_000 },
  { name: 'tokenize: punctuation run', path: 'tokenize', make: punctuationRun, n: 200_000 },
  { name: 'tokenize: joined identifier', path: 'tokenize', make: joinedIdentifier, n: 300_000 },
  { name: 'tokenize: stacked marks', path: 'tokenize', make: stackedMarks, n: 8_000_000 },
  { name: 'tokenize: han run', path: 'tokenize', make: hanRun, n: 300_000 },
  { name: 'tokenize: chinese compound run', path: 'tokenize', make: chineseCompoundRun, n: 300_000 },
  { name: 'tokenize: emoji run', path: 'tokenize', make: emojiRun, n: 400_000 },
  { name: 'tokenize: distinct words', path: 'tokenize', make: distinctWords, n: 600_000 },
  { name: 'sparse: distinct words', path: 'sparse', make: distinctWords, n: 1_000_000 },
  { name: 'sparse: one repeated word', path: 'sparse', make: (n) => 'word '.repeat(Math.ceil(n / 5)), n: 10_000_000 },
];
