import fs from 'node:fs';
import { loadPdfjs } from '../parsers/pdf/loadPdfjs';
import { writeBenchResult } from './benchResults';
import { checkGoals, formatGoals } from './pdfStructureGoals';
import { FAMILIES, htmlPages, splitsFromEnv } from './pdfStructureCorpus';
import { renderAll, renderersFromEnv, type RenderedPdf } from './pdfStructureRender';
import { formatTable, summarize, type Row } from './pdfStructureReport';
import { addScores, NO_SCORE, scoreDocument, type DocumentScore } from './pdfStructureScore';
import { runSide, sidesFromEnv } from './pdfStructureSides';
import { truthOf, type Truth } from './pdfStructureTruth';

/**
 * `npm run bench:pdf-structure`: how much of a document's structure PDF parsers give back, against
 * truth read from the HTML the PDFs were printed from (pdfStructureCorpus.ts: Debian's manuals,
 * pdfStructureRender.ts: three renderers, pdfStructureTruth.ts). sluice and its peers parse the
 * same PDFs in one run (pdfStructureSides.ts) and are scored alike (pdfStructureScore.ts). The
 * parser is tuned on the tune split; the held-out split's figures are the ones that count.
 * BENCH_PDF_SPLIT, BENCH_PDF_SIDES and BENCH_PDF_RENDERERS narrow a run while iterating. Writes
 * bench-results/pdf-structure.json.
 */
async function pageCount(pdfPath: string): Promise<number> {
  const pdfjs = await loadPdfjs();
  const pdf = await pdfjs.getDocument({ data: new Uint8Array(fs.readFileSync(pdfPath)) }).promise;
  try {
    return pdf.numPages;
  } finally {
    await pdf.destroy();
  }
}

async function main(): Promise<void> {
  const splits = splitsFromEnv();
  const renderers = renderersFromEnv();
  const pages = htmlPages(splits);
  const truths = new Map<string, Truth>(
    pages.map((page) => [page.id, truthOf(fs.readFileSync(page.htmlPath, 'utf8'), page.chrome)]),
  );
  const pdfs: RenderedPdf[] = await renderAll(pages, renderers);
  const pageCounts: number[] = [];
  for (const pdf of pdfs) pageCounts.push(await pageCount(pdf.pdfPath));
  console.error(`${pdfs.length} PDFs, ${pageCounts.reduce((a, b) => a + b, 0)} pages`);

  const rows: Row[] = [];
  const documents: unknown[] = [];
  for (const side of sidesFromEnv()) {
    const parsed = await runSide(
      side,
      pdfs.map((pdf) => pdf.pdfPath),
    );
    const groups = new Map<string, { scores: DocumentScore; pages: number; seconds: number; cpuSeconds: number }>();
    pdfs.forEach((pdf, index) => {
      const score = scoreDocument(truths.get(pdf.page.id)!, parsed[index]!.markdown);
      const { seconds, cpuSeconds } = parsed[index]!;
      documents.push({
        side,
        pdf: `${pdf.renderer}/${pdf.page.id}`,
        pages: pageCounts[index],
        seconds,
        cpuSeconds,
        score,
      });
      for (const key of [`${pdf.page.split}|all`, `${pdf.page.split}|${pdf.renderer}`, `all|all`]) {
        const group = groups.get(key) ?? { scores: NO_SCORE, pages: 0, seconds: 0, cpuSeconds: 0 };
        groups.set(key, {
          scores: addScores(group.scores, score),
          pages: group.pages + pageCounts[index]!,
          seconds: group.seconds + seconds,
          cpuSeconds: group.cpuSeconds + cpuSeconds,
        });
      }
    });
    for (const [key, group] of groups) {
      const [split, renderer] = key.split('|') as [string, string];
      rows.push(summarize(side, split, renderer, group));
    }
    console.error(`${side} done`);
  }
  writeBenchResult('pdf-structure.json', {
    bench: 'pdf-structure',
    date: new Date().toISOString(),
    corpus: {
      families: FAMILIES.filter((family) => splits.includes(family.split)).map(({ name, split, pkg, pages: p }) => ({
        name,
        split,
        pkg,
        pages: p,
      })),
      renderers,
      pdfs: pdfs.length,
      pages: pageCounts.reduce((a, b) => a + b, 0),
    },
    goals: checkGoals(rows),
    results: rows,
    documents,
  });
  console.log(formatTable(rows));
  console.log(`\nsluice on the held-out split:\n${formatGoals(checkGoals(rows))}`);
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
