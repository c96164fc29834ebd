/**
 * Whether a line opens a question in an FAQ: "Q: …", "Question: …", "问：…", or a line that is
 * all bold and ends with a question mark. Prefix and suffix checks only, no pattern over the line.
 */
const PREFIXES = ['Q:', 'Q.', 'Q)', 'Question:', 'QUESTION:', '问：', '问:', '问题：', '问题:'];

export function isQuestionLine(line: string): boolean {
  const text = line.trim();
  if (text.length < 3) return false;
  if (PREFIXES.some((prefix) => text.startsWith(prefix))) return true;
  return text.startsWith('**') && text.endsWith('**') && endsWithQuestionMark(text.slice(2, -2));
}

export function endsWithQuestionMark(text: string): boolean {
  const trimmed = text.trimEnd();
  return trimmed.endsWith('?') || trimmed.endsWith('？');
}

/** The question without its marker, for the section path: "Q: Why?" → "Why?". */
export function questionTitle(line: string): string {
  let text = line.trim();
  if (text.startsWith('**') && text.endsWith('**')) text = text.slice(2, -2);
  for (const prefix of PREFIXES) if (text.startsWith(prefix)) return text.slice(prefix.length).trim();
  return text.trim();
}
