import fs from 'node:fs';
import path from 'node:path';
import { debianDocPath } from '../testkit/fixtures/debianDocs';
import { sectionedMarkdown } from '../testkit/harness/ingestHelpers';
import { docxFixture, pptxFixture, xlsxFixture } from '../testkit/fixtures/officeFixtures';
import { ensureCorpus, pickPages } from './corpus';

export interface ChaosFile {
  fileName: string;
  bytes: Buffer;
}

/** gnuplot's manual: the one large PDF of the mix (hundreds of pages), fetched with apt like the other benches. */
export const LARGE_PDF = { pkg: 'gnuplot-doc', file: 'usr/share/doc/gnuplot/gnuplot.pdf' };

/** Shares of the mix by format; the rest of `total` (after the large PDF) is real HTML pages. */
const SHARES = { md: 0.15, txt: 0.05, csv: 0.07, docx: 0.07, xlsx: 0.05, pptx: 0.04 };

function csv(i: number): string {
  const rows = ['id,name,stage,chunks'];
  for (let r = 0; r < 40 + i; r++) rows.push(`${r},item ${i}-${r},stage ${r % 6},${(r * 7 + i) % 97}`);
  return `${rows.join('\n')}\n`;
}

function text(i: number): string {
  const lines: string[] = [];
  for (let p = 0; p < 20 + i; p++)
    lines.push(`Paragraph ${p} of note ${i}: the soak writes plain text too, line ${p}.`, '');
  return lines.join('\n');
}

/**
 * The soak's documents, deterministic for a given `total`: real PostgreSQL HTML pages (most of
 * it), generated markdown of varied size, plain text, CSV, DOCX, XLSX and PPTX built by the test
 * fixtures, and one large real PDF.
 */
export function chaosCorpus(total: number): ChaosFile[] {
  const files: ChaosFile[] = [
    { fileName: 'gnuplot.pdf', bytes: fs.readFileSync(debianDocPath(LARGE_PDF.pkg, LARGE_PDF.file)) },
  ];
  const count = (share: number) => Math.max(1, Math.round((total - 1) * share));
  for (let i = 0; i < count(SHARES.md); i++)
    files.push({ fileName: `notes-${i}.md`, bytes: Buffer.from(sectionedMarkdown(20 + ((i * 37) % 400), `md${i}`)) });
  for (let i = 0; i < count(SHARES.txt); i++) files.push({ fileName: `note-${i}.txt`, bytes: Buffer.from(text(i)) });
  for (let i = 0; i < count(SHARES.csv); i++) files.push({ fileName: `table-${i}.csv`, bytes: Buffer.from(csv(i)) });
  for (let i = 0; i < count(SHARES.docx); i++)
    files.push({
      fileName: `report-${i}.docx`,
      bytes: docxFixture([
        { heading: 1, text: `Report ${i}` },
        { text: `The report number ${i} describes a soak run.` },
        { heading: 2, text: 'Findings' },
        { bullet: `finding ${i} one` },
        { bullet: `finding ${i} two` },
        {
          table: [
            ['fault', 'count'],
            ['postgres', String(i)],
          ],
        },
      ]),
    });
  for (let i = 0; i < count(SHARES.xlsx); i++)
    files.push({
      fileName: `sheet-${i}.xlsx`,
      bytes: xlsxFixture([
        { name: `Sheet ${i}`, rows: [['kind', 'n'], ...Array.from({ length: 10 + i }, (_, r) => [`row ${r}`, r * i])] },
      ]),
    });
  for (let i = 0; i < count(SHARES.pptx); i++)
    files.push({
      fileName: `deck-${i}.pptx`,
      bytes: pptxFixture([
        { title: `Deck ${i}`, bullets: ['durable', 'idempotent'], notes: `speaker notes ${i}` },
        { title: 'Faults', bullets: ['worker', 'postgres', 'temporal'] },
      ]),
    });
  const pages = pickPages(ensureCorpus(), Math.max(0, total - files.length));
  for (const page of pages)
    if ('path' in page.source) files.push({ fileName: page.fileName, bytes: fs.readFileSync(page.source.path) });
  return files.slice(0, Math.max(total, 1));
}

export function formatOf(fileName: string): string {
  return path.extname(fileName).slice(1) || 'none';
}
