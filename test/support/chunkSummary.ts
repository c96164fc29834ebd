import { chunkMarkdown, DEFAULT_CHUNKER_OPTIONS } from '../../chunker/chunkMarkdown';
import { countTokens } from '../../tokenizer/countTokens';
import type { ChunkDraft } from '../../contracts/chunk';
import {
  childBody,
  childrenOf,
  overBudget,
  parentsOf,
  saneChildCount,
  sectionsUncovered,
  uncoveredAt,
} from './chunkChecks';

/**
 * What the adversarial tests check of chunkMarkdown's output, computed where it runs (a worker
 * thread, see offThread.ts), so only this small summary crosses back.
 */
export interface ChunkSummary {
  sectionPaths: string[][];
  children: number;
  /** chunk_index of children over the token budget. */
  overBudget: number[];
  /** Parents (by position) whose children leave part of their text out. */
  uncovered: number[];
  /** Parents (by position) cut into more children than twice the ideal count. */
  fragmented: number[];
  /** chunk_index of children holding half of a surrogate pair. */
  brokenPairs: number[];
  /** chunk_index of children missing the wrapper given to summarizeChunks. */
  unwrapped: number[];
  lastChild: string;
}

/**
 * What the chunker repeats around every child of a table or code block (the header rows, the
 * fences); the rest of the markdown is what the children cover.
 */
export interface Wrapper {
  start: string;
  end: string;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** chunkMarkdown with the worker's default options, summarized. */
export function summarizeChunks(markdown: string, wrapper?: Wrapper): ChunkSummary {
  const { maxTokens, overlapTokens } = DEFAULT_CHUNKER_OPTIONS;
  const chunks = chunkMarkdown('adversarial', markdown, DEFAULT_CHUNKER_OPTIONS);
  const parents = parentsOf(chunks);
  const children = childrenOf(chunks);
  const indexesWhere = <T>(items: T[], test: (item: T) => boolean): number[] =>
    items.flatMap((item, i) => (test(item) ? [i] : []));
  return {
    sectionPaths: parents.map((parent) => parent.sectionPath),
    children: children.length,
    overBudget: overBudget(chunks, maxTokens),
    uncovered: wrapper
      ? wrappedUncovered(markdown, children, wrapper)
      : indexesWhere(sectionsUncovered(chunks), (at) => at !== null),
    fragmented: indexesWhere(parents, (parent) => {
      const count = parent.childRange ? parent.childRange.last - parent.childRange.first + 1 : 0;
      return count > saneChildCount(countTokens(parent.text), maxTokens, overlapTokens);
    }),
    brokenPairs: children.filter((child) => LONE_SURROGATE.test(child.text)).map((child) => child.chunkIndex),
    unwrapped: wrapper
      ? children.filter((child) => !isWrapped(childBody(child), wrapper)).map((child) => child.chunkIndex)
      : [],
    lastChild: children.at(-1) ? childBody(children.at(-1)!) : '',
  };
}

function isWrapped(text: string, { start, end }: Wrapper): boolean {
  return text.length >= start.length + end.length && text.startsWith(start) && text.endsWith(end);
}

/** [0] when the unwrapped children leave part of the one section of a wrapped block out. */
function wrappedUncovered(markdown: string, children: ChunkDraft[], wrapper: Wrapper): number[] {
  const inner = (text: string): string => text.slice(wrapper.start.length, text.length - wrapper.end.length);
  return uncoveredAt(
    inner(markdown),
    children.map((child) => inner(childBody(child)).trim()),
  ) === null
    ? []
    : [0];
}
