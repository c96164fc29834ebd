import fs from 'node:fs';
import { htmlPages } from './pdfStructureCorpus';
import { renderAll, renderersFromEnv } from './pdfStructureRender';

/**
 * `npm run bench:pdf-structure:tune-pdfs`: renders the tune split only and prints its PDFs, one
 * per line with the HTML page after a tab, for tuning the parser. The held-out PDFs are never
 * rendered nor named here, so tuning cannot peek at them. With an argument, the list is also
 * written to that file.
 */
async function main(): Promise<void> {
  const rendered = await renderAll(htmlPages(['tune']), renderersFromEnv());
  const list = rendered.map((pdf) => `${pdf.pdfPath}\t${pdf.page.htmlPath}\n`).join('');
  const out = process.argv[2];
  if (out) fs.writeFileSync(out, list);
  process.stdout.write(list);
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
