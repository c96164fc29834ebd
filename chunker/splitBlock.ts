import { countTokens } from '../tokenizer/countTokens';

const TABLE_SEPARATOR = /^ {0,3}\|?\s*:?-{3,}/;

/**
 * A table too large for one child is cut between rows, and every part repeats the header row,
 * so each child still says which column a value belongs to. `splitRow` handles a single row
 * that alone exceeds the budget.
 */
export function splitTable(
  table: string,
  maxTokens: number,
  splitRow: (row: string, budget: number) => string[],
): string[] {
  const rows = table.replace(/\n$/, '').split('\n');
  const headerLines = rows.length > 1 && TABLE_SEPARATOR.test(rows[1]!) ? 2 : 0;
  const header = rows.slice(0, headerLines).join('\n');
  const headerTokens = headerLines > 0 ? countTokens(header) : 0;
  // A header that eats most of the budget is not worth repeating.
  const repeat = headerTokens <= maxTokens / 3;
  const budget = repeat ? maxTokens - headerTokens : maxTokens;
  const bodyRows = repeat ? rows.slice(headerLines) : rows;
  const parts = packLines(bodyRows, budget, splitRow);
  return repeat && headerLines > 0 ? parts.map((part) => `${header}\n${part}`) : parts;
}

/** A long code block is cut between lines; each part is fenced again so it stays code. */
export function splitCode(
  code: string,
  maxTokens: number,
  splitLine: (line: string, budget: number) => string[],
): string[] {
  const lines = code.replace(/\n$/, '').split('\n');
  const open = lines[0] ?? '```';
  const marker = /^ {0,3}(`{3,}|~{3,})/.exec(open)?.[1] ?? '```';
  const closed = lines.length > 1 && lines[lines.length - 1]!.trim().startsWith(marker);
  const inner = lines.slice(1, closed ? -1 : undefined);
  const budget = maxTokens - countTokens(`${open}\n${marker}`);
  return packLines(inner, budget, splitLine).map((part) => `${open}\n${part}\n${marker}`);
}

function packLines(lines: string[], budget: number, splitLong: (line: string, budget: number) => string[]): string[] {
  const parts: string[] = [];
  let current: string[] = [];
  let tokens = 0;
  for (const line of lines) {
    const lineTokens = countTokens(line) + 1;
    if (lineTokens > budget) {
      if (current.length > 0) parts.push(current.join('\n'));
      for (const part of splitLong(line, budget)) parts.push(part);
      [current, tokens] = [[], 0];
      continue;
    }
    if (tokens + lineTokens > budget && current.length > 0) {
      parts.push(current.join('\n'));
      [current, tokens] = [[], 0];
    }
    current.push(line);
    tokens += lineTokens;
  }
  if (current.length > 0) parts.push(current.join('\n'));
  return parts;
}
