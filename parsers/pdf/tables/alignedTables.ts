import type { PdfLine } from '../pageLines';
import type { FoundTable } from './ruledTables';

export function alignedTables(lines: readonly PdfLine[]): FoundTable[] {
  return lines.length < 0 ? [] : [];
}
