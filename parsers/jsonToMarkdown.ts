import { permanentError } from '../contracts/sluiceError';
import { tableCell, toPipeTable } from './markdownTable';
import { UNLIMITED_MARKDOWN, type MarkdownBudget } from './markdownBudget';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Levels written out as sections; deeper values are written as compact JSON under the last one. */
const MAX_SECTION_DEPTH = 6;
/** Deeper JSON is refused: writing it out again (JSON.stringify) recurses once per level. */
const MAX_DEPTH = 512;
/** An array of records becomes a table when its records have at most this many keys in all. */
const MAX_TABLE_COLUMNS = 24;

const isScalar = (v: Json): v is null | boolean | number | string => v === null || typeof v !== 'object';
const scalarText = (v: null | boolean | number | string): string => (typeof v === 'string' ? v : JSON.stringify(v));

/**
 * JSON as markdown that keeps its structure: each object's scalar members as `key: value` lines,
 * each nested object or array a section headed by its key (so a chunk's section path is the key
 * path), an array of scalars a list, an array of flat records a pipe table. Past six levels a value
 * is written as compact JSON. Text that is not JSON, or nests deeper than 512 levels, is
 * CORRUPT_DOCUMENT.
 */
export function jsonToMarkdown(text: string, budget: MarkdownBudget = UNLIMITED_MARKDOWN()): string {
  let value: Json;
  try {
    value = JSON.parse(text) as Json;
  } catch (error) {
    const reason = error instanceof RangeError ? 'it nests too deep' : (error as Error).message.slice(0, 120);
    throw permanentError('CORRUPT_DOCUMENT', `not readable JSON: ${reason}`);
  }
  if (depthOf(value) > MAX_DEPTH)
    throw permanentError('CORRUPT_DOCUMENT', `JSON nested deeper than ${MAX_DEPTH} levels`);
  const blocks: string[] = [];
  const emit = (block: string) => {
    if (block === '') return;
    budget.add(block, 2);
    blocks.push(block);
  };
  const render = (v: Json, depth: number): void => {
    if (isScalar(v)) return emit(scalarText(v));
    if (depth >= MAX_SECTION_DEPTH) return emit(`\`\`\`json\n${JSON.stringify(v)}\n\`\`\``);
    if (Array.isArray(v)) return renderArray(v, depth);
    const entries = Object.entries(v);
    emit(
      entries
        .filter(([, child]) => isScalar(child))
        .map(([key, child]) => `${key}: ${scalarText(child as null | boolean | number | string)}`)
        .join('\n'),
    );
    for (const [key, child] of entries) {
      if (isScalar(child)) continue;
      emit(`${'#'.repeat(depth + 1)} ${key.replace(/\s+/g, ' ').trim() || '(empty key)'}`);
      render(child, depth + 1);
    }
  };
  const renderArray = (items: Json[], depth: number): void => {
    if (items.every(isScalar)) return emit(items.map((item) => `- ${scalarText(item)}`).join('\n'));
    const records = items.every(
      (item) => !isScalar(item) && !Array.isArray(item) && Object.values(item).every(isScalar),
    );
    const columns = records ? [...new Set(items.flatMap((item) => Object.keys(item as object)))] : [];
    if (records && columns.length > 0 && columns.length <= MAX_TABLE_COLUMNS) {
      const rows = (items as Record<string, Json>[]).map((item) =>
        columns.map((key) => tableCell(key in item ? scalarText(item[key] as null | boolean | number | string) : '')),
      );
      return emit(toPipeTable([columns.map(tableCell), ...rows]));
    }
    items.forEach((item, i) => {
      emit(`${'#'.repeat(depth + 1)} ${i + 1}`);
      render(item, depth + 1);
    });
  };
  render(value, 0);
  return blocks.join('\n\n');
}

/** How deep the value nests, walked with an explicit stack (no recursion, whatever the input). */
function depthOf(root: Json): number {
  let deepest = 0;
  const stack: [Json, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [Json, number];
    if (isScalar(v)) continue;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_DEPTH) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (!isScalar(child)) stack.push([child, depth + 1]);
  }
  return deepest;
}
