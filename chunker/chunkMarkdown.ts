import { createHash } from 'node:crypto';
import type { ChunkDraft } from '../contracts/chunk';
import { permanentError } from '../contracts/sluiceError';
import { countTokens } from '../tokenizer/countTokens';
import { splitSections, type Section } from './splitSections';
import { splitText } from './splitText';

export interface ChunkerOptions {
  /** Upper bound (by countTokens) of a child chunk, the unit that gets embedded and retrieved. */
  maxTokens: number;
  /** How much of the previous child each child repeats; at most half of maxTokens. */
  overlapTokens: number;
}

export const DEFAULT_CHUNKER_OPTIONS: ChunkerOptions = { maxTokens: 400, overlapTokens: 60 };

/** Below this, a hard cut could not guarantee progress (one character can cost 2 tokens). */
const MIN_MAX_TOKENS = 8;

/**
 * Structure-aware chunking: every section (heading + body) becomes a parent chunk holding the whole
 * section for answer context, followed by the child chunks it is split into for retrieval.
 * Same document id and markdown give the same chunks and ids, which keeps re-runs idempotent.
 */
export function chunkMarkdown(documentId: string, markdown: string, options: ChunkerOptions): ChunkDraft[] {
  validateOptions(options);
  const chunks: ChunkDraft[] = [];
  for (const section of splitSections(markdown)) {
    const body = section.body.trim();
    if (body === '') continue;
    const parent = draftChunk(documentId, chunks.length, 'parent', null, section.path, sectionText(section, body));
    chunks.push(parent);
    for (const childText of splitText(body, options.maxTokens, options.overlapTokens)) {
      chunks.push(draftChunk(documentId, chunks.length, 'child', parent.chunkId, section.path, childText));
    }
  }
  return chunks;
}

function sectionText(section: Section, body: string): string {
  return section.heading === null ? body : `${section.heading.trim()}\n\n${body}`;
}

function draftChunk(
  documentId: string,
  chunkIndex: number,
  kind: ChunkDraft['kind'],
  parentId: string | null,
  sectionPath: string[],
  text: string,
): ChunkDraft {
  return {
    chunkId: chunkIdOf(documentId, chunkIndex, text),
    chunkIndex,
    kind,
    parentId,
    sectionPath: [...sectionPath],
    text,
    charCount: text.length,
    tokenCount: countTokens(text),
  };
}

/** Content-derived so a rebuild of the same markdown upserts onto the same rows and vectors. */
export function chunkIdOf(documentId: string, chunkIndex: number, text: string): string {
  return createHash('sha256').update(`${documentId}\u0000${chunkIndex}\u0000${text}`).digest('hex').slice(0, 32);
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
