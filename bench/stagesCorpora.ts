import { debianDocPath } from '../testkit/fixtures/debianDocs';
import { ensureCorpus, pickPages } from './corpus';
import type { DocKind } from './stagesParse';

export interface StageCorpus {
  name: string;
  kind: DocKind;
  files: string[];
}

const R_MANUALS = 'usr/share/doc/r-doc-pdf/manual';
const HTML_PAGES = 300;

/**
 * Four real corpora, from Debian's documentation packages: 300 pages of the
 * PostgreSQL 15 HTML manual (spread over the sorted list, so the size mix stays), R-intro.pdf,
 * gnuplot.pdf and the R reference manual. A reduced run (scale < 1, for CI) takes fewer HTML pages
 * and, of the PDFs, only R-intro (113 pages): the 311- and 2,415-page manuals alone take minutes.
 */
export function stageCorpora(scale: number): StageCorpus[] {
  const pages = Math.max(10, Math.round(HTML_PAGES * Math.min(1, scale)));
  const corpora: StageCorpus[] = [
    {
      name: `PostgreSQL 15 HTML (${pages} pages)`,
      kind: 'html',
      files: pickPages(ensureCorpus(), pages).map((f) => (f.source as { path: string }).path),
    },
    { name: 'R-intro.pdf', kind: 'pdf', files: [debianDocPath('r-doc-pdf', `${R_MANUALS}/R-intro.pdf`)] },
  ];
  if (scale < 1) return corpora;
  corpora.push({
    name: 'gnuplot.pdf',
    kind: 'pdf',
    files: [debianDocPath('gnuplot-doc', 'usr/share/doc/gnuplot/gnuplot.pdf')],
  });
  corpora.push({ name: 'refman.pdf', kind: 'pdf', files: [debianDocPath('r-doc-pdf', `${R_MANUALS}/refman.pdf`)] });
  return corpora;
}
