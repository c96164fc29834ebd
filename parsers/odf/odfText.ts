/**
 * The text of ODF paragraphs as a SAX walk meets it (text:p, text:h and what they hold): spans and
 * links pass their text through, `text:s` is its count of spaces (bounded), tabs and line breaks
 * are spaces, and notes, annotations and frames keep their own paragraphs apart (a footnote's
 * body is read after the paragraph that cites it, a comment not at all).
 */
const MAX_SPACES = 64;

/** Elements whose text is not the paragraph's: comments, a footnote's mark, a frame's alt text, change tracking. */
const SKIPPED = new Set(['office:annotation', 'text:note-citation', 'svg:title', 'svg:desc', 'text:tracked-changes']);

export interface OdfParagraph {
  /** `text:h`'s outline level (1–6); 0 for a paragraph. */
  level: number;
  /** Nesting of the lists around it (1 = a top-level list item); 0 outside lists. */
  listDepth: number;
  text: string;
}

/**
 * Collects paragraphs in document order. `open`/`close`/`text` are fed by the SAX parser; a
 * paragraph nested in another (a footnote body) is kept and handed out after the outer one.
 */
export class OdfParagraphs {
  private readonly open_: { level: number; listDepth: number; parts: string[]; nested: OdfParagraph[] }[] = [];
  private skipped = 0;
  private listDepth = 0;

  constructor(private readonly emit: (paragraph: OdfParagraph) => void) {}

  open(name: string, a: Record<string, string>): void {
    if (SKIPPED.has(name)) this.skipped++;
    if (this.skipped > 0) return;
    if (name === 'text:list') this.listDepth++;
    else if (name === 'text:p' || name === 'text:h') {
      const level = name === 'text:h' ? Math.min(6, Math.max(1, Number(a['text:outline-level'] ?? 1) || 1)) : 0;
      this.open_.push({ level, listDepth: this.listDepth, parts: [], nested: [] });
    } else if (name === 'text:s')
      this.add(' '.repeat(Math.min(MAX_SPACES, Math.max(1, Number(a['text:c'] ?? 1) || 1))));
    else if (name === 'text:tab' || name === 'text:line-break') this.add(' ');
  }

  close(name: string): void {
    if (SKIPPED.has(name)) {
      this.skipped--;
      return;
    }
    if (this.skipped > 0) return;
    if (name === 'text:list') this.listDepth--;
    else if (name === 'text:p' || name === 'text:h') {
      const done = this.open_.pop();
      if (!done) return;
      const paragraph = {
        level: done.level,
        listDepth: done.listDepth,
        text: done.parts.join('').replace(/\s+/g, ' ').trim(),
      };
      const outer = this.open_[this.open_.length - 1];
      if (outer) {
        outer.nested.push(paragraph);
        for (const note of done.nested) outer.nested.push(note);
        return;
      }
      this.emit(paragraph);
      for (const note of done.nested) this.emit(note);
    }
  }

  text(text: string): void {
    if (this.skipped === 0) this.add(text);
  }

  /** Whether a paragraph is open: text outside paragraphs (in a frame, a table's structure) is not read. */
  get inParagraph(): boolean {
    return this.open_.length > 0;
  }

  private add(text: string): void {
    this.open_[this.open_.length - 1]?.parts.push(text);
  }
}

/** A paragraph as markdown: a heading, a list item indented by its depth, or plain text. */
export function paragraphMarkdown(p: OdfParagraph): string {
  if (p.text === '') return '';
  if (p.level > 0) return `${'#'.repeat(p.level)} ${p.text}`;
  if (p.listDepth > 0) return `${'  '.repeat(p.listDepth - 1)}- ${p.text}`;
  return p.text;
}
