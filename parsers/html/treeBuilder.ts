import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';
import { isAdmonition, isContentContainer, keepsElement } from '../htmlBoilerplate';
import {
  BLOCK_ELEMENTS,
  endTagBoundaries,
  FOREIGN_ROOTS,
  impliedEnds,
  isIgnoredDocumentTag,
  RAW_TEXT_ELEMENTS,
  VOID_ELEMENTS,
  type ImpliedEnd,
} from '../htmlNestingRules';
import { newElement, NO_ATTRIBUTES, READ_ATTRIBUTES, textContent, type HtmlElement } from './htmlTree';
import { OpenElements } from './openElements';
import { summarize } from './subtreeSummary';

/**
 * Deeper than real pages go (a few dozen levels), shallow enough that the recursive markdown
 * rules after the parse stay far from the stack limit and that each ancestor scan costs a bounded
 * number of steps.
 */
export const MAX_HTML_DEPTH = 200;

/**
 * A source line break between two Chinese/Japanese characters. Browsers drop it (CSS Text's
 * segment break rules); kept, it would become a space that splits words ("组成， 每个").
 * Hangul is excluded: Korean separates words with spaces.
 */
const CJK_LINE_BREAK =
  /(?<=[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\u3000-\u303f\uff00-\uffef])[ \t]*\n\s*(?=[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\u3000-\u303f\uff00-\uffef])/gu;

/** Every character the line-break rule joins is at or above U+2E80 (surrogates included). */
const MAYBE_CJK = /[\u2e80-\uffff]/;

/** Code keeps its line breaks. */
const KEEPS_LINE_BREAKS = new Set(['pre', 'code', 'textarea']);
/**
 * Raw-text elements that htmlparser2's tokenizer reads as markup (it knows script, style, title,
 * textarea and xmp): until their end tag, tags inside are ignored, so that a stray end tag in a
 * <noscript> cannot close the page around it.
 */
const TAGLESS_ELEMENTS = new Set(['noscript', 'iframe', 'noembed', 'noframes', 'plaintext']);

/** The parser drops a line break right after these start tags. */
const DROPS_FIRST_NEWLINE = new Set(['pre', 'listing', 'textarea']);

export interface HtmlPage {
  /** The document, boilerplate already removed. */
  root: HtmlElement;
  /** Text of the first <title>, '' without one. */
  title: string;
}

const Counted = { container: 1, admonition: 2, literal: 4 } as const;

/**
 * One pass of htmlparser2's tokenizer builds the tree, with no element deeper than maxDepth:
 * tags beyond it are dropped (a block becomes a line break) and their text stays in place, so
 * 20,000 nested <div>s cost no more than 20,000 paragraphs. The nesting follows the HTML
 * tree-construction rules for implied and ignored end tags (htmlNestingRules.ts), each lookup
 * bounded by maxDepth; boilerplate is removed as each element closes (htmlBoilerplate.ts).
 */
export function parseHtmlPage(html: string, maxDepth = MAX_HTML_DEPTH): HtmlPage {
  return new TreeBuilder(html, maxDepth).run();
}

class TreeBuilder implements TokenizerCallbacks {
  private readonly root = newElement('#document');
  private readonly open: OpenElements;
  /** The open elements that are in the tree; the last one receives new nodes. */
  private readonly kept: HtmlElement[] = [];
  /** For each kept element, which of the counters below it adds to (see Counted). */
  private readonly keptCounts: number[] = [];
  private readonly text: string[] = [];
  private title: string | undefined;
  /** Open svg/math elements: inside them `<x/>` closes itself and no HTML rule applies. */
  private foreign = 0;
  private containers = 0;
  private admonitions = 0;
  private literals = 0;
  private dropNewline = false;
  /** Inside a TAGLESS_ELEMENTS element: the only end tag that counts. */
  private taglessEnd: string | undefined;
  /** The tree ends with a line break standing for dropped block tags; consecutive ones make one. */
  private brokeLine = false;
  private tagName = '';
  private attrs: Map<string, string> | undefined;
  private attrName = '';
  private attrValue = '';
  private attrRead = false;

  constructor(
    private readonly html: string,
    private readonly maxDepth: number,
  ) {
    this.open = new OpenElements(maxDepth);
  }

  run(): HtmlPage {
    const tokenizer = new Tokenizer({ decodeEntities: true }, this);
    tokenizer.write(this.html);
    tokenizer.end();
    return { root: this.root, title: (this.title ?? '').trim() };
  }

  ontext(start: number, end: number): void {
    this.text.push(this.html.slice(start, end));
  }

  ontextentity(codepoint: number): void {
    this.text.push(String.fromCodePoint(codepoint));
  }

  onopentagname(start: number, end: number): void {
    this.flushText();
    this.tagName = this.html.slice(start, end).toLowerCase();
    this.attrs = undefined;
  }

  onattribname(start: number, end: number): void {
    this.attrName = this.html.slice(start, end).toLowerCase();
    this.attrRead = READ_ATTRIBUTES.has(this.attrName) && this.attrs?.has(this.attrName) !== true;
    this.attrValue = '';
  }

  onattribdata(start: number, end: number): void {
    if (this.attrRead) this.attrValue += this.html.slice(start, end);
  }

  onattribentity(codepoint: number): void {
    if (this.attrRead) this.attrValue += String.fromCodePoint(codepoint);
  }

  onattribend(): void {
    if (this.attrRead) (this.attrs ??= new Map()).set(this.attrName, this.attrValue);
  }

  onopentagend(): void {
    this.startTag(this.tagName, false);
  }

  onselfclosingtag(): void {
    this.startTag(this.tagName, true);
  }

  onclosetag(start: number, end: number): void {
    this.flushText();
    this.endTag(this.html.slice(start, end).toLowerCase());
  }

  onend(): void {
    this.flushText();
    this.closeDownTo(0);
  }

  oncdata(): void {}
  oncomment(): void {}
  ondeclaration(): void {}
  onprocessinginstruction(): void {}

  private startTag(name: string, selfClosing: boolean): void {
    this.dropNewline = false;
    if (this.taglessEnd !== undefined) return;
    if (this.foreign === 0) for (const end of impliedEnds(name)) this.endImplied(end);
    if (isIgnoredDocumentTag(name, this.open.isOpen)) return;
    const attrs = this.attrs ?? NO_ATTRIBUTES;
    if (VOID_ELEMENTS.has(name) || (selfClosing && this.foreign > 0)) {
      this.openElement(newElement(name, attrs));
      this.closeElement();
      return;
    }
    // Raw-text elements are kept at any depth: they hold no elements, and dropping a <script> tag would turn its code into text.
    const kept = this.open.length < this.maxDepth || (this.foreign === 0 && RAW_TEXT_ELEMENTS.has(name));
    const element = kept ? newElement(name, attrs) : undefined;
    if (element) this.openElement(element);
    else this.flatten(name);
    this.open.push({ name, element });
    if (FOREIGN_ROOTS.has(name)) this.foreign++;
    else if (this.foreign === 0 && TAGLESS_ELEMENTS.has(name)) this.taglessEnd = name;
    this.dropNewline = kept && DROPS_FIRST_NEWLINE.has(name);
  }

  private endTag(name: string): void {
    this.dropNewline = false;
    if (this.taglessEnd !== undefined) {
      if (name !== this.taglessEnd) return;
      this.taglessEnd = undefined;
    }
    const index = this.open.find(name, endTagBoundaries(name), false);
    if (index >= 0) this.closeDownTo(index);
    else if (name === 'br') {
      // The parser reads a stray </br> as <br>.
      this.attrs = undefined;
      this.startTag('br', false);
    }
  }

  private endImplied(end: ImpliedEnd): void {
    const index = this.open.find(end.names, end.boundaries, end.currentOnly ?? false);
    if (index >= 0) this.closeDownTo(index);
  }

  private closeDownTo(index: number): void {
    while (this.open.length > index) {
      const { name, element } = this.open.pop()!;
      if (FOREIGN_ROOTS.has(name)) this.foreign--;
      if (element) this.closeElement();
      else this.flatten(name);
    }
  }

  private current(): HtmlElement {
    return this.kept[this.kept.length - 1] ?? this.root;
  }

  private openElement(element: HtmlElement): void {
    this.current().children.push(element);
    this.kept.push(element);
    const counted =
      (isContentContainer(element) ? Counted.container : 0) |
      (isAdmonition(element) ? Counted.admonition : 0) |
      (KEEPS_LINE_BREAKS.has(element.name) ? Counted.literal : 0);
    this.keptCounts.push(counted);
    if (counted !== 0) this.count(counted, 1);
    this.brokeLine = false;
  }

  /** Closes the innermost kept element: it is the last child of its parent, so dropping it is a pop. */
  private closeElement(): void {
    const element = this.kept.pop()!;
    const counted = this.keptCounts.pop()!;
    if (counted !== 0) this.count(counted, -1);
    summarize(element);
    if (element.name === 'title' && this.title === undefined) this.title = textContent(element);
    if (!keepsElement(element, { inContainer: this.containers > 0, inAdmonition: this.admonitions > 0 }))
      this.current().children.pop();
    this.brokeLine = false;
  }

  private count(counted: number, step: 1 | -1): void {
    if (counted & Counted.container) this.containers += step;
    if (counted & Counted.admonition) this.admonitions += step;
    if (counted & Counted.literal) this.literals += step;
  }

  /** Leaves a dropped tag out: a line break for a block element, nothing for an inline one. */
  private flatten(name: string): void {
    if (!BLOCK_ELEMENTS.has(name) || this.brokeLine) return;
    const lineBreak = newElement('br');
    lineBreak.filled = true;
    this.current().children.push(lineBreak);
    this.brokeLine = true;
  }

  private flushText(): void {
    if (this.text.length === 0) return;
    let text = this.text.length === 1 ? this.text[0]! : this.text.join('');
    this.text.length = 0;
    if (text.includes('\r')) text = text.replace(/\r\n?/g, '\n');
    if (this.dropNewline && text.startsWith('\n')) text = text.slice(1);
    this.dropNewline = false;
    if (this.literals === 0 && text.includes('\n') && MAYBE_CJK.test(text)) text = text.replace(CJK_LINE_BREAK, '');
    if (text === '') return;
    this.current().children.push({ kind: 'text', text });
    if (this.brokeLine && /\S/.test(text)) this.brokeLine = false;
  }
}
