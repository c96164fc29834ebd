import type { ChunkDraft } from '../contracts/chunk';
import { permanentError } from '../contracts/sluiceError';
import { countTokens } from '../tokenizer/countTokens';
import { childCharCap } from './charCap';
import { chunkIdOf } from './chunkMarkdown';
import { sectionContext } from './sectionContext';
import { splitText } from './splitText';

/**
 * Collects one document's drafts for the strategies other than `general`: a parent, then its
 * children, each child led by the parent's section path as in chunkMarkdown, with the chunk cap
 * (SLUICE_MAX_CHUNKS_PER_DOCUMENT) checked as chunks are added so a huge document fails early.
 */
export class ChunkSink {
  readonly chunks: ChunkDraft[] = [];

  constructor(
    private readonly documentId: string,
    private readonly maxChunks: number,
  ) {}

  /**
   * One parent holding `parentText`, with children cut from `body` to at most `childTokens` each
   * (the section path's line included). `pieces`, when given, are the children's bodies as they
   * are (row groups, one answer), split further only when one is over budget.
   */
  addParent(
    path: readonly string[],
    parentText: string,
    body: string,
    childTokens: number,
    overlapTokens: number,
    pieces?: readonly string[],
  ): void {
    if (parentText.trim() === '') return;
    const parentIndex = this.chunks.length;
    const parent = this.draft(parentIndex, 'parent', null, path, parentText, countTokens(parentText));
    this.push(parent);
    const context = sectionContext(path, childTokens);
    const contextTokens = context === '' ? 0 : countTokens(context) + 1;
    const budget = childTokens - contextTokens;
    const texts: string[] = [];
    for (const piece of pieces ?? [body]) {
      const fits = pieces !== undefined && piece.length <= childCharCap(budget) && countTokens(piece) <= budget;
      if (fits) texts.push(piece);
      else for (const child of splitText(piece, budget, overlapTokens).children) texts.push(child.text);
    }
    for (const text of texts) {
      if (text.trim() === '') continue;
      const full = context === '' ? text : `${context}\n\n${text}`;
      this.push(this.draft(this.chunks.length, 'child', parent.chunkId, path, full, countTokens(full)));
    }
    // A parent is context for its children: one with none would be retrieved by nothing.
    if (this.chunks.length === parentIndex + 1) this.chunks.pop();
    else parent.childRange = { first: parentIndex + 1, last: this.chunks.length - 1 };
  }

  private push(chunk: ChunkDraft): void {
    this.chunks.push(chunk);
    if (this.chunks.length > this.maxChunks)
      throw permanentError(
        'FILE_TOO_LARGE',
        `the document makes more than ${this.maxChunks} chunks (SLUICE_MAX_CHUNKS_PER_DOCUMENT)`,
      );
  }

  private draft(
    chunkIndex: number,
    kind: ChunkDraft['kind'],
    parentId: string | null,
    path: readonly string[],
    text: string,
    tokenCount: number,
  ): ChunkDraft {
    return {
      chunkId: chunkIdOf(this.documentId, chunkIndex, text),
      childRange: null,
      chunkIndex,
      kind,
      parentId,
      sectionPath: [...path],
      text,
      charCount: text.length,
      tokenCount,
    };
  }
}
