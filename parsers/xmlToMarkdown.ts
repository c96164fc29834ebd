import { Parser } from 'htmlparser2';
import { permanentError } from '../contracts/sluiceError';
import { UNLIMITED_MARKDOWN, type MarkdownBudget } from './markdownBudget';

/** Elements a document may nest: deeper is refused, as OOXML parts are (parsers/ooxml/xmlEvents.ts). */
const MAX_DEPTH = 256;
/** Attributes that name an element, shown beside its name in its section's heading. */
const NAMING_ATTRIBUTES = ['name', 'id', 'title', 'key', 'label'];

interface Open {
  name: string;
  label: string;
  depth: number;
  /** Its own text (not its children's): an element with some is text, one without a container. */
  ownText: boolean;
  hasChildren: boolean;
  /** Where its text starts in the document's text pieces: a text element is the pieces from there on. */
  start: number;
  /** What a container becomes: its children's blocks, leaf values grouped as `name: value` lines. */
  blocks: string[];
  lines: string[];
}

const squeeze = (text: string): string => text.replace(/\s+/g, ' ').trim();

/**
 * XML as markdown that keeps its structure: an element holding only elements is a section headed
 * by its name (and a naming attribute: `name`, `id`, `title`...), so a chunk's section path is its
 * element path; an element holding text is a `name: text` line when it holds nothing else and a
 * paragraph when its text runs around inline elements (mixed content, as in DocBook or JATS).
 * One SAX pass; nesting past 256 elements or text that is not XML is CORRUPT_DOCUMENT.
 */
export function xmlToMarkdown(text: string, budget: MarkdownBudget = UNLIMITED_MARKDOWN()): string {
  // Every text piece once, in document order: an element's text is a slice, joined when it is written.
  const pieces: string[] = [];
  const root: Open = {
    name: '',
    label: '',
    depth: 0,
    ownText: false,
    hasChildren: false,
    start: 0,
    blocks: [],
    lines: [],
  };
  const stack: Open[] = [root];
  const top = () => stack[stack.length - 1] as Open;
  const flushLines = (e: Open) => {
    if (e.lines.length === 0) return;
    const block = e.lines.join('\n');
    budget.add(block, 2);
    e.blocks.push(block);
    e.lines = [];
  };
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (stack.length > MAX_DEPTH)
          throw permanentError('CORRUPT_DOCUMENT', `the XML is nested deeper than ${MAX_DEPTH} elements`);
        const parent = top();
        parent.hasChildren = true;
        const naming = NAMING_ATTRIBUTES.map((a) => attributes[a]).find((v) => v !== undefined && v.trim() !== '');
        const label = naming ? `${name} ${squeeze(naming).slice(0, 200)}` : name;
        stack.push({
          name,
          label,
          depth: parent.depth + 1,
          ownText: false,
          hasChildren: false,
          start: pieces.length,
          blocks: [],
          lines: [],
        });
      },
      ontext(chunk) {
        const e = top();
        if (chunk.trim() !== '') e.ownText = true;
        pieces.push(chunk);
      },
      onclosetag() {
        const e = stack.pop() as Open;
        const parent = top();
        // Between elements, words stay apart in a parent's paragraph.
        pieces.push(' ');
        if (e.ownText) {
          // Inline in a paragraph of mixed content: the parent's text holds it.
          if (parent.ownText) return;
          // A leaf value, or a paragraph of mixed content (its inline elements' text read in place).
          const flat = squeeze(pieces.slice(e.start).join(''));
          if (flat === '') return;
          if (e.hasChildren) {
            flushLines(parent);
            budget.add(flat, 2);
            parent.blocks.push(flat);
          } else {
            budget.add(flat, e.name.length + 3);
            parent.lines.push(`${e.name}: ${flat}`);
          }
          return;
        }
        flushLines(e);
        if (e.blocks.length === 0) return;
        flushLines(parent);
        const heading = `${'#'.repeat(Math.min(6, e.depth))} ${e.label}`;
        budget.add(heading, 2);
        parent.blocks.push(heading);
        for (const block of e.blocks) parent.blocks.push(block);
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  try {
    parser.write(text);
    parser.end();
  } catch (error) {
    if (error instanceof Error && 'code' in error) throw error;
    throw permanentError('CORRUPT_DOCUMENT', `not readable XML: ${(error as Error).message.slice(0, 120)}`);
  }
  flushLines(root);
  return root.blocks.join('\n\n');
}
