import type { ChunkDraft } from '../../contracts/chunk';
import type { ChunkingParameters } from '../../contracts/chunkingPlan';
import { countTokens } from '../../tokenizer/countTokens';
import { splitBlocks } from '../blocks';
import { ChunkSink } from '../chunkSink';
import { sectionContext } from '../sectionContext';
import { splitTable } from '../splitBlock';
import { splitSections } from '../splitSections';
import { splitText } from '../splitText';

/**
 * `table`: spreadsheets, CSV and documents made of large tables. Every pipe table is cut into row
 * groups of at most childTokens, each repeating the header row, so one child answers "what does
 * row X say" with its column names; a parent holds up to parentTokens of the table (null: the
 * whole table), header included. A section's prose and code become a parent of their own, cut as
 * `general` cuts text.
 */
export function tableChunks(
  documentId: string,
  markdown: string,
  parameters: ChunkingParameters,
  maxChunks: number,
): ChunkDraft[] {
  const sink = new ChunkSink(documentId, maxChunks);
  const { childTokens, overlapTokens, parentTokens } = parameters;
  for (const section of splitSections(markdown)) {
    const prose: string[] = [];
    const tables: string[] = [];
    for (const block of splitBlocks(section.body)) (block.kind === 'table' ? tables : prose).push(block.text);
    const text = prose.join('').trim();
    const heading = section.heading?.trim() ?? '';
    if (text !== '')
      sink.addParent(section.path, heading === '' ? text : `${heading}\n\n${text}`, text, childTokens, overlapTokens);
    const context = sectionContext(section.path, childTokens);
    const budget = childTokens - (context === '' ? 0 : countTokens(context) + 1);
    for (const table of tables) {
      const parents = parentTokens === null ? [table.trimEnd()] : splitTable(table, parentTokens, splitRow);
      for (const part of parents) {
        const groups = splitTable(part, budget, splitRow);
        sink.addParent(section.path, heading === '' ? part : `${heading}\n\n${part}`, part, childTokens, 0, groups);
      }
    }
  }
  return sink.chunks;
}

/** A row longer than a whole group: cut at its sentences and clauses like any long text. */
function splitRow(row: string, budget: number): string[] {
  return splitText(row, budget, 0).children.map((child) => child.text);
}
