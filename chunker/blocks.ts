/** A run of a section body that the splitter treats as one kind of content. */
export interface Block {
  kind: 'text' | 'table' | 'code';
  /** Verbatim, including the line break that ends it, so concatenated blocks rebuild the body. */
  text: string;
}

/** As in splitSections: the look-ahead takes the marker run whole, so it is never rescanned. */
const FENCE = /^ {0,3}(?=(`{3,}|~{3,}))\1(.*)$/;

/**
 * Splits a section body into text, pipe tables and fenced code blocks. Tables and code have
 * their own split rules (between rows or lines only, with the header or fence repeated), so the
 * splitter needs to know where they are. One pass over the lines by offset: a block is one slice
 * of the body, and only a line that starts like a fence or a table row is matched against one.
 */
export function splitBlocks(body: string): Block[] {
  const blocks: Block[] = [];
  let textStart = -1;
  const endText = (end: number): void => {
    if (textStart >= 0 && end > textStart) blocks.push({ kind: 'text', text: body.slice(textStart, end) });
    textStart = -1;
  };
  let pos = 0;
  while (pos < body.length) {
    const next = lineEnd(body, pos);
    const first = firstMark(body, pos);
    const fence = first === BACKTICK || first === TILDE ? FENCE.exec(lineText(body, pos, next)) : null;
    if (fence) {
      endText(pos);
      const end = closingFence(body, next, fence[1]!);
      blocks.push({ kind: 'code', text: body.slice(pos, end) });
      pos = end;
    } else if (first === PIPE) {
      // A table row: `|` after up to three spaces; the table runs while the lines do.
      endText(pos);
      let end = next;
      while (end < body.length && firstMark(body, end) === PIPE) end = lineEnd(body, end);
      blocks.push({ kind: 'table', text: body.slice(pos, end) });
      pos = end;
    } else {
      if (textStart < 0) textStart = pos;
      pos = next;
    }
  }
  endText(body.length);
  return blocks;
}

const SPACE = 0x20;
const BACKTICK = 0x60;
const TILDE = 0x7e;
const PIPE = 0x7c;

/** Offset just past the line starting at `start`: after its line break, or the end of the body. */
function lineEnd(body: string, start: number): number {
  const newline = body.indexOf('\n', start);
  return newline < 0 ? body.length : newline + 1;
}

/** The line without its line break, as the fence pattern reads it. */
function lineText(body: string, start: number, end: number): string {
  return body.slice(start, end > start && body.charCodeAt(end - 1) === 0x0a ? end - 1 : end);
}

/** The character after up to three spaces of indent: what decides whether a line may be a fence or a row. */
function firstMark(body: string, start: number): number {
  let i = start;
  while (i < start + 3 && body.charCodeAt(i) === SPACE) i++;
  return body.charCodeAt(i);
}

/** Offset past the fence's closing line, or the end of the body when the fence is never closed. */
function closingFence(body: string, from: number, marker: string): number {
  for (let pos = from; pos < body.length;) {
    const next = lineEnd(body, pos);
    const first = firstMark(body, pos);
    if (first === marker.charCodeAt(0)) {
      const match = FENCE.exec(lineText(body, pos, next));
      if (match && match[1]!.length >= marker.length && match[2]!.trim() === '') return next;
    }
    pos = next;
  }
  return body.length;
}
