import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PDF_BENCH_CACHE, type HtmlPage } from './pdfStructureCorpus';

const run = promisify(execFile);

/**
 * The HTML-to-PDF renderers of the benchmark: three engines with their own layout and text output
 * (WebKit/Qt, Blink, and WeasyPrint's own), so that no parser is tuned to one producer's PDFs.
 * Each runs in an empty network namespace (`unshare -n`, root): the pages are local files, and
 * a page that links a remote stylesheet must not make the corpus depend on the network. wkhtmltopdf
 * runs no JavaScript, as WeasyPrint has none; headless Chromium wrote no PDF with scripts turned
 * off, so it runs the pages' few scripts. nice: the machine is shared.
 */
export const RENDERERS = ['chromium', 'weasyprint', 'wkhtmltopdf'] as const;
export type Renderer = (typeof RENDERERS)[number];

function command(renderer: Renderer, html: string, pdf: string, scratch: string): string[] {
  switch (renderer) {
    case 'chromium':
      return [
        'chromium',
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-pdf-header-footer',
        `--user-data-dir=${scratch}`,
        `--print-to-pdf=${pdf}`,
        `file://${html}`,
      ];
    case 'weasyprint':
      return ['weasyprint', '-q', html, pdf];
    case 'wkhtmltopdf':
      return ['wkhtmltopdf', '-q', '--enable-local-file-access', '--disable-javascript', html, pdf];
  }
}

export interface RenderedPdf {
  page: HtmlPage;
  renderer: Renderer;
  pdfPath: string;
}

/** Where a page's PDF from one renderer is cached: pdfs/<renderer>/<family>/<page>.pdf. */
export function pdfPathOf(page: HtmlPage, renderer: Renderer): string {
  return path.join(PDF_BENCH_CACHE, 'pdfs', renderer, page.id.replace(/\.html$/, '.pdf'));
}

async function render(page: HtmlPage, renderer: Renderer): Promise<RenderedPdf> {
  const pdfPath = pdfPathOf(page, renderer);
  if (!fs.existsSync(pdfPath)) {
    fs.mkdirSync(path.dirname(pdfPath), { recursive: true });
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'pdf-bench-'));
    // Written aside and renamed, so an interrupted render never leaves a PDF in the cache.
    const partial = path.join(scratch, 'out.pdf');
    try {
      const args = command(renderer, page.htmlPath, partial, path.join(scratch, 'profile'));
      await run('unshare', ['-n', 'nice', '-n', '10', ...args], { timeout: 300_000 });
      if (!fs.existsSync(partial)) throw new Error(`${renderer} wrote no PDF for ${page.id}`);
      fs.renameSync(partial, pdfPath);
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  }
  return { page, renderer, pdfPath };
}

/** Renders (or finds cached) every page with every renderer, two at a time. */
export async function renderAll(pages: HtmlPage[], renderers: readonly Renderer[]): Promise<RenderedPdf[]> {
  const jobs = pages.flatMap((page) => renderers.map((renderer) => ({ page, renderer })));
  const done: RenderedPdf[] = new Array<RenderedPdf>(jobs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const index = next++;
      const job = jobs[index]!;
      done[index] = await render(job.page, job.renderer);
    }
  };
  await Promise.all([worker(), worker()]);
  return done;
}

/** BENCH_PDF_RENDERERS=chromium,weasyprint,... (default all). */
export function renderersFromEnv(value = process.env.BENCH_PDF_RENDERERS): Renderer[] {
  if (!value) return [...RENDERERS];
  return value.split(',').map((name) => {
    if (!(RENDERERS as readonly string[]).includes(name)) throw new Error(`unknown renderer ${name}`);
    return name as Renderer;
  });
}
