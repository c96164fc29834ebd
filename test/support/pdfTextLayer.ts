import { open } from 'node:fs/promises';
import { cleanPdfText } from '../../parsers/pdf/cleanText';
import { openPdf } from '../../parsers/pdf/openPdf';
import { pageLines } from '../../parsers/pdf/pageLines';
import { pdfToMarkdown, type PdfStats } from '../../parsers/pdf/pdfToMarkdown';

/** What a fidelity check compares: sluice's markdown and pdf.js's own text, line by line per page. */
export interface PdfTextLayer {
  markdown: string;
  /** Each page's lines as pdf.js gives them (items grouped by baseline), ligatures expanded; empty with markdownOnly. */
  pages: string[][];
  /** Pages the parser left out as table of contents or index (1-based). */
  referencePages: number[];
  outlineEntries: number;
}

/**
 * Run in a child process (`node --require tsx/cjs`): pdf.js is an ES module that Jest's module
 * system cannot load. Prints the PdfTextLayer of the file named on the command line as JSON
 * (`--markdown-only` after it: without the pages, for a document too long to read twice).
 */
export async function readPdfTextLayer(filePath: string, markdownOnly = false): Promise<PdfTextLayer> {
  const stats: PdfStats = { pages: 0, referencePages: [], outlineEntries: 0 };
  const markdown = await pdfToMarkdown(filePath, stats);
  const { referencePages, outlineEntries } = stats;
  if (markdownOnly) return { markdown, pages: [], referencePages, outlineEntries };
  const file = await open(filePath, 'r');
  try {
    const pdf = await openPdf(file, (await file.stat()).size);
    try {
      const pages: string[][] = [];
      for (let n = 1; n <= pdf.numPages; n++) {
        const page = await pdf.getPage(n);
        pages.push(pageLines(await page.getTextContent()).map((line) => cleanPdfText(line.text)));
        page.cleanup();
      }
      return { markdown, pages, referencePages, outlineEntries };
    } finally {
      await pdf.destroy();
    }
  } finally {
    await file.close();
  }
}

if (require.main === module) {
  readPdfTextLayer(process.argv[2] ?? '', process.argv[3] === '--markdown-only').then(
    (layer) => process.stdout.write(JSON.stringify(layer)),
    (error: unknown) => {
      process.stderr.write(String(error));
      process.exitCode = 1;
    },
  );
}
