/** A run of a section body that the splitter treats as one kind of content. */
export interface Block {
  kind: 'text' | 'table' | 'code';
  /** Verbatim, including the line break that ends it, so concatenated blocks rebuild the body. */
  text: string;
}

/** As in splitSections: the look-ahead takes the marker run whole, so it is never rescanned. */
const FENCE = /^ {0,3}(?=(`{3,}|~{3,}))\1(.*)$/;
const TABLE_ROW = /^ {0,3}\|/;

/**
 * Splits a section body into text, pipe tables and fenced code blocks. Tables and code have
 * their own split rules (between rows or lines only, with the header or fence repeated), so the
 * splitter needs to know where they are.
 */
export function splitBlocks(body: string): Block[] {
  const blocks: Block[] = [];
  const lines = body.split(/(?<=\n)/);
  let i = 0;
  const push = (kind: Block['kind'], text: string): void => {
    const last = blocks[blocks.length - 1];
    if (kind === 'text' && last?.kind === 'text') last.text += text;
    else if (text !== '') blocks.push({ kind, text });
  };
  while (i < lines.length) {
    const line = lines[i]!;
    const fence = FENCE.exec(line.replace(/\n$/, ''));
    if (fence) {
      const end = closingFence(lines, i, fence[1]!);
      push('code', lines.slice(i, end + 1).join(''));
      i = end + 1;
    } else if (TABLE_ROW.test(line)) {
      let end = i;
      while (end + 1 < lines.length && TABLE_ROW.test(lines[end + 1]!)) end++;
      push('table', lines.slice(i, end + 1).join(''));
      i = end + 1;
    } else {
      push('text', line);
      i++;
    }
  }
  return blocks;
}

/** Index of the fence's closing line, or the last line when the fence is never closed. */
function closingFence(lines: string[], open: number, marker: string): number {
  for (let j = open + 1; j < lines.length; j++) {
    const match = FENCE.exec(lines[j]!.replace(/\n$/, ''));
    if (match && match[1]!.charAt(0) === marker.charAt(0) && match[1]!.length >= marker.length && match[2]!.trim() === '') return j;
  }
  return lines.length - 1;
}
