import { hash } from 'node:crypto';
import type { ChunkDraft } from '../contracts/chunk';
import { permanentError } from '../contracts/sluiceError';
import { countTokens, joinTallies, tallyTokens, tokensOfTally } from '../tokenizer/countTokens';
import { sectionContext } from './sectionContext';
import { sectionParents } from './splitParents';
import { splitSections, type Section } from './splitSections';
import { splitText } from './splitText';

export interface ChunkerOptions {
  /** Upper bound (by countTokens) of a child chunk, the unit that gets embedded and retrieved. */
  maxTokens: number;
  /** How much of the previous child each child repeats; at most half of maxTokens. */
  overlapTokens: number;
  /**
   * A section body below this is a fragment (a heading's one-line intro to its subsections): it
   * is folded into the next section when that one is nested under it. Default: maxTokens / 16.
   */
  minTokens?: number;
  /**
   * Chunks (parents and children) one document may have (SLUICE_MAX_CHUNKS_PER_DOCUMENT): checked
   * as they are made, so a document past it fails FILE_TOO_LARGE before the rest is built.
   */
  maxChunks?: number;
  /**
   * A section larger than this becomes several parents of at most this many tokens, cut at
   * paragraph boundaries where possible (splitParents). Absent or null: one parent per section.
   */
  parentTokens?: number | null;
}

export const DEFAULT_CHUNKER_OPTIONS: ChunkerOptions = { maxTokens: 400, overlapTokens: 60 };

const BLANK_LINE = tallyTokens('\n\n');

/** Below this, a hard cut could not guarantee progress (one character can cost 2 tokens). */
const MIN_MAX_TOKENS = 8;

/**
 * Structure-aware chunking: every section (heading + body) becomes a parent chunk holding the whole
 * section for answer context, followed by the child chunks it is split into for retrieval, each
 * led by the section path (sectionContext); the parent records the chunk_index range of its
 * children. Same document id and markdown give the same chunks and ids, which keeps re-runs
 * idempotent. Each character is counted about once: pieces are tallied when they are cut, and
 * children's and parents' counts are joined from those tallies.
 */
export function chunkMarkdown(documentId: string, markdown: string, options: ChunkerOptions): ChunkDraft[] {
  validateOptions(options);
  const minTokens = options.minTokens ?? Math.floor(options.maxTokens / 16);
  const chunks: ChunkDraft[] = [];
  const maxChunks = options.maxChunks ?? Number.POSITIVE_INFINITY;
  const sections = splitSections(markdown);
  let carried = '';
  for (const [i, section] of sections.entries()) {
    const own = section.body.trim();
    if (own === '' && carried === '') continue;
    const next = sections[i + 1];
    if (next && isNestedUnder(next, section) && isFragment(own, minTokens)) {
      // The fragment travels with its heading, so the text still shows where it came from.
      carried = joinBlocks(carried, sectionText(section, own));
      continue;
    }
    // Folded text already carries this section's heading; otherwise the parent adds it.
    const body = carried === '' ? own : joinBlocks(carried, sectionText(section, own));
    const parentText = carried === '' ? sectionText(section, own) : body;
    const headed = carried === '' && section.heading !== null;
    carried = '';
    const parentTokens = options.parentTokens ?? null;
    if (parentTokens === null || countTokens(parentText) <= parentTokens) {
      addParent(chunks, documentId, section, parentText, body, headed, options);
    } else {
      // A section over parentTokens: several parents, each with the children of its own part.
      const { parts, repeatHeading } = sectionParents(section.heading, body, headed, parentTokens);
      for (const part of parts) {
        const text = repeatHeading ? sectionText(section, part) : part;
        addParent(chunks, documentId, section, text, part, repeatHeading, options);
        checkCap(chunks, maxChunks);
      }
    }
    checkCap(chunks, maxChunks);
  }
  return chunks;
}

function checkCap(chunks: ChunkDraft[], maxChunks: number): void {
  if (chunks.length > maxChunks) {
    throw permanentError(
      'FILE_TOO_LARGE',
      `the document makes more than ${maxChunks} chunks (SLUICE_MAX_CHUNKS_PER_DOCUMENT)`,
    );
  }
}

/**
 * A parent holding `parentText`, then the children cut from `body`, each led by the section path
 * within budget (children are what gets embedded and indexed); the parent records their range.
 */
function addParent(
  chunks: ChunkDraft[],
  documentId: string,
  section: Section,
  parentText: string,
  body: string,
  headed: boolean,
  options: ChunkerOptions,
): void {
  const parentIndex = chunks.length;
  const parent = draftChunk(documentId, parentIndex, 'parent', null, section.path, parentText, 0);
  chunks.push(parent);
  const context = sectionContext(section.path, options.maxTokens);
  const contextTally = joinTallies(tallyTokens(context), BLANK_LINE);
  const budget = options.maxTokens - tokensOfTally(contextTally);
  const { children, bodyTally } = splitText(body, budget, options.overlapTokens);
  for (const child of children) {
    const text = context === '' ? child.text : `${context}\n\n${child.text}`;
    const tally = context === '' ? child.tally : joinTallies(contextTally, child.tally);
    chunks.push(
      draftChunk(documentId, chunks.length, 'child', parent.chunkId, section.path, text, tokensOfTally(tally)),
    );
  }
  // The parent's count from the tallies splitText took of its body: the section is not rescanned.
  parent.tokenCount = tokensOfTally(
    headed ? joinTallies(joinTallies(tallyTokens(section.heading!.trim()), BLANK_LINE), bodyTally) : bodyTally,
  );
  parent.childRange = { first: parentIndex + 1, last: chunks.length - 1 };
}

/**
 * A count never shrinks as text is added, so a start that already reaches minTokens settles it
 * without a scan of a long section.
 */
function isFragment(body: string, minTokens: number): boolean {
  return countTokens(body.slice(0, (minTokens + 1) * 16)) < minTokens && countTokens(body) < minTokens;
}

function isNestedUnder(next: Section, section: Section): boolean {
  return next.path.length > section.path.length && section.path.every((title, i) => next.path[i] === title);
}

function sectionText(section: Section, body: string): string {
  return section.heading === null ? body : joinBlocks(section.heading.trim(), body);
}

function joinBlocks(first: string, second: string): string {
  return first === '' ? second : second === '' ? first : `${first}\n\n${second}`;
}

function draftChunk(
  documentId: string,
  chunkIndex: number,
  kind: ChunkDraft['kind'],
  parentId: string | null,
  sectionPath: string[],
  text: string,
  tokenCount: number,
): ChunkDraft {
  return {
    chunkId: chunkIdOf(documentId, chunkIndex, text),
    childRange: null,
    chunkIndex,
    kind,
    parentId,
    sectionPath: [...sectionPath],
    text,
    charCount: text.length,
    tokenCount,
  };
}

/**
 * Content-derived so a rebuild of the same markdown upserts onto the same rows and vectors. The
 * one-shot hash: a Hash object per chunk cost a quarter of the hashing time.
 */
export function chunkIdOf(documentId: string, chunkIndex: number, text: string): string {
  return hash('sha256', `${documentId}\u0000${chunkIndex}\u0000${text}`, 'hex').slice(0, 32);
}

function validateOptions({ maxTokens, overlapTokens }: ChunkerOptions): void {
  const valid =
    Number.isInteger(maxTokens) &&
    Number.isInteger(overlapTokens) &&
    maxTokens >= MIN_MAX_TOKENS &&
    overlapTokens >= 0 &&
    overlapTokens * 2 <= maxTokens;
  if (!valid) {
    throw permanentError(
      'CHUNKING_FAILED',
      `invalid chunker options maxTokens=${maxTokens} overlapTokens=${overlapTokens}: need integers, maxTokens >= ${MIN_MAX_TOKENS}, 0 <= overlapTokens <= maxTokens / 2`,
    );
  }
}
