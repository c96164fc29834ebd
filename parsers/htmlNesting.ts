import { Tokenizer, TokenizerMode, type Token } from 'parse5';
import {
  BLOCK_ELEMENTS,
  endTagBoundaries,
  FOREIGN_ROOTS,
  impliedEnds,
  isIgnoredDocumentTag,
  RAW_TEXT_ELEMENTS,
  VOID_ELEMENTS,
  type ImpliedEnd,
} from './htmlNestingRules';

/**
 * Deeper than real pages go (a few dozen levels), shallow enough that the recursive tree walks
 * after it (cheerio's selectors, turndown) stay far from the stack limit, and that each of their
 * ancestor scans costs a bounded number of steps.
 */
export const MAX_HTML_DEPTH = 200;

interface OpenElement {
  name: string;
  /** False for an element beyond the depth limit: its tags are left out, its content kept. */
  kept: boolean;
}

const noop = (): void => {};

/**
 * Rewrites HTML so that no element nests deeper than maxDepth: tags beyond it are dropped (a block
 * becomes a line break) and their text stays in place. HTML parsers and the tree walks after them
 * cost the depth per element, so 20,000 nested <div>s took minutes and then overflowed the stack.
 *
 * One pass over parse5's own tokenizer, so that tags are read exactly as the parser will read
 * them; the nesting follows the tree-construction rules for implied and ignored end tags. Every
 * element the rules end is closed explicitly in the output, so the parser builds the tree measured
 * here and cannot nest deeper on markup that only looked shallow to this pass.
 */
export function limitHtmlNesting(html: string, maxDepth = MAX_HTML_DEPTH): string {
  return new NestingLimiter(html, maxDepth).run();
}

class NestingLimiter {
  private readonly open: OpenElement[] = [];
  private readonly openCounts = new Map<string, number>();
  private readonly out: string[] = [];
  /** Source up to here is already in the output. */
  private cursor = 0;
  /** Open svg/math elements: inside them `<x/>` closes itself and no HTML rule applies. */
  private foreign = 0;
  /** The output ends with a line break standing for dropped block tags; consecutive ones make one. */
  private brokeLine = false;
  private readonly tokenizer: Tokenizer;

  constructor(
    private readonly html: string,
    private readonly maxDepth: number,
  ) {
    this.tokenizer = new Tokenizer(
      { sourceCodeLocationInfo: true },
      {
        onStartTag: (token) => this.startTag(token),
        onEndTag: (token) => this.endTag(token),
        onComment: noop,
        onDoctype: noop,
        onEof: noop,
        onCharacter: noop,
        onNullCharacter: noop,
        onWhitespaceCharacter: noop,
      },
    );
  }

  run(): string {
    this.tokenizer.write(this.html, true);
    this.copyTo(this.html.length);
    return this.out.join('');
  }

  private startTag(token: Token.TagToken): void {
    const name = token.tagName;
    const { startOffset, endOffset } = token.location!;
    this.copyTo(startOffset);
    if (this.foreign === 0) for (const end of impliedEnds(name)) this.endImplied(end);
    const childless = VOID_ELEMENTS.has(name) || (token.selfClosing && this.foreign > 0);
    if (childless || isIgnoredDocumentTag(name, (other) => this.isOpen(other))) return this.copyTo(endOffset);
    // Raw-text elements are kept at any depth: they hold no elements, and dropping a <script> tag would turn its code into text.
    const rawText = this.foreign === 0 ? RAW_TEXT_ELEMENTS.get(name) : undefined;
    const kept = this.open.length < this.maxDepth || rawText !== undefined;
    if (kept) this.copyTo(endOffset);
    else this.flatten(name, endOffset);
    this.open.push({ name, kept });
    this.openCounts.set(name, (this.openCounts.get(name) ?? 0) + 1);
    if (rawText) this.tokenizer.state = TokenizerMode[rawText];
    if (FOREIGN_ROOTS.has(name)) this.foreign++;
    this.tokenizer.inForeignNode = this.foreign > 0;
  }

  /** An end tag the rules ignore is copied as it is: the parser ignores it too (or, for </p> and </br>, adds an empty element). */
  private endTag(token: Token.TagToken): void {
    const { startOffset, endOffset } = token.location!;
    this.copyTo(startOffset);
    const index = this.find(token.tagName, endTagBoundaries(token.tagName), false);
    if (index < 0) return this.copyTo(endOffset);
    this.closeDownTo(index);
    this.cursor = endOffset;
  }

  private endImplied(end: ImpliedEnd): void {
    const index = this.find(end.names, end.boundaries, end.currentOnly ?? false);
    if (index >= 0) this.closeDownTo(index);
  }

  /**
   * Index of the innermost open element matching, looking down no further than a boundary
   * element (nor further than maxDepth elements, which keeps each lookup bounded); -1 if none.
   */
  private find(names: ReadonlySet<string> | string, boundaries: ReadonlySet<string>, currentOnly: boolean): number {
    const matches = typeof names === 'string' ? (name: string) => name === names : (name: string) => names.has(name);
    // Most end tags and most implied ends have nothing open to end: answered without a scan.
    if (typeof names === 'string' ? !this.isOpen(names) : !this.anyOpen(names)) return -1;
    const stop = Math.max(0, this.open.length - (currentOnly ? 1 : this.maxDepth));
    for (let i = this.open.length - 1; i >= stop; i--) {
      const name = this.open[i]!.name;
      if (matches(name)) return i;
      if (boundaries.has(name)) return -1;
    }
    return -1;
  }

  private isOpen(name: string): boolean {
    return (this.openCounts.get(name) ?? 0) > 0;
  }

  private anyOpen(names: ReadonlySet<string>): boolean {
    for (const name of names) if (this.isOpen(name)) return true;
    return false;
  }

  private closeDownTo(index: number): void {
    while (this.open.length > index) {
      const element = this.open.pop()!;
      this.openCounts.set(element.name, this.openCounts.get(element.name)! - 1);
      if (FOREIGN_ROOTS.has(element.name)) this.foreign--;
      if (element.kept) this.emit(`</${element.name}>`);
      else this.flatten(element.name, this.cursor);
    }
    this.tokenizer.inForeignNode = this.foreign > 0;
  }

  /** Leaves a dropped tag out: a line break for a block element, nothing for an inline one. */
  private flatten(name: string, resumeAt: number): void {
    this.cursor = resumeAt;
    if (!BLOCK_ELEMENTS.has(name) || this.brokeLine) return;
    this.out.push('<br>');
    this.brokeLine = true;
  }

  private copyTo(offset: number): void {
    if (offset <= this.cursor) return;
    const source = this.html.slice(this.cursor, offset);
    this.cursor = offset;
    this.out.push(source);
    if (/\S/.test(source)) this.brokeLine = false;
  }

  private emit(markup: string): void {
    this.out.push(markup);
    this.brokeLine = false;
  }
}
