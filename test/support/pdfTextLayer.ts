import { open } from 'node:fs/promises';
import { cleanPdfText } from '../../parsers/pdf/cleanText';
import { openPdf } from '../../parsers/pdf/openPdf';
import { pageLines } from '../../parsers/pdf/pageLines';
import { pdfToMarkdown } from '../../parsers/pdf/pdfToMarkdown';

/** What a fidelity check compares: sluice's markdown and pdf.js's own text, line by line per page. */
export interface PdfTextLayer {
  markdown: string;
  /** Each page's lines as pdf.js gives them (items grouped by baseline), ligatures expanded. */
  pages: string[][];
}

/**
 * Run in a child process (`node --require tsx/cjs`): pdf.js is an ES module that Jest's module
 * system cannot load. Prints the PdfTextLayer of the file named on the command line as JSON.
 */
export async function readPdfTextLayer(filePath: string): Promise<PdfTextLayer> {
  const markdown = await pdfToMarkdown(filePath);
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
      return { markdown, pages };
    } finally {
      await pdf.destroy();
    }
  } finally {
    await file.close();
  }
}

if (require.main === module) {
  readPdfTextLayer(process.argv[2] ?? '').then(
    (layer) => process.stdout.write(JSON.stringify(layer)),
    (error: unknown) => {
      process.stderr.write(String(error));
      process.exitCode = 1;
    },
  );
}
