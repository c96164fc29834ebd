import os from 'node:os';
import path from 'node:path';

/**
 * The pages `npm run bench:pdf-structure` renders to PDF, from Debian's HTML manuals (unpacked,
 * pinned, by scripts/pdf-structure-deps.sh). Chosen once for having tables, lists, code blocks and
 * headings at a size of a few printed pages each; the list is fixed so every run measures the same
 * documents. The parser is tuned on the "tune" families only; the "heldout" families are the ones
 * whose figures count, and nobody tuning should look at their PDFs.
 */
export type Split = 'tune' | 'heldout';

export interface Family {
  name: string;
  split: Split;
  /** The unpacked package (a directory under docs/ of the cache) and where its HTML lies in it. */
  pkg: string;
  htmlDir: string;
  pages: string[];
  /**
   * Page chrome left out of the truth (navigation bars, sidebars, permalinks): what a reader of the
   * page would not call its content. A side that prints it is not credited nor blamed for it,
   * except as extra cells in a table count.
   */
  chrome: string[];
}

export const PDF_BENCH_CACHE =
  process.env.SLUICE_PDF_BENCH_CACHE ?? path.join(os.homedir(), '.cache', 'sluice', 'pdf-structure');

export const FAMILIES: Family[] = [
  {
    name: 'postgresql',
    split: 'tune',
    pkg: 'postgresql-doc-15_15.20-0+deb12u1',
    htmlDir: 'usr/share/doc/postgresql-doc-15/html',
    pages: ['pgupgrade.html', 'ltree.html', 'multibyte.html', 'plpgsql-porting.html', 'dynamic-trace.html'],
    chrome: ['.navheader', '.navfooter'],
  },
  {
    name: 'python',
    split: 'tune',
    pkg: 'python3.11-doc_3.11.2-6+deb12u9',
    htmlDir: 'usr/share/doc/python3.11/html',
    pages: [
      'c-api/structures.html',
      'distutils/builtdist.html',
      'library/2to3.html',
      'library/dbm.html',
      'using/unix.html',
    ],
    chrome: ['div.related', 'div.sphinxsidebar', 'div.footer', '#top-link', 'a.headerlink', '.mobile-nav'],
  },
  {
    name: 'apache',
    split: 'heldout',
    pkg: 'apache2-doc_2.4.71-1~deb12u1',
    htmlDir: 'usr/share/doc/apache2-doc/manual/en',
    pages: [
      'mod/mod_authz_core.html',
      'mod/mod_setenvif.html',
      'mod/mod_deflate.html',
      'mod/mod_dir.html',
      'mod/mod_remoteip.html',
    ],
    chrome: ['#page-header', '#path', '.toplang', '.bottomlang', '#footer', '#comments_section', '.top'],
  },
  {
    name: 'sqlite',
    split: 'heldout',
    pkg: 'sqlite3-doc_3.40.1-2+deb12u2',
    htmlDir: 'usr/share/doc/sqlite3',
    pages: ['zipfile.html', 'dbstat.html', 'queryplanner.html', 'lang_createtrigger.html', 'floatingpoint.html'],
    chrome: ['.nosearch', '.menu', '.search'],
  },
  {
    name: 'debian-reference',
    split: 'heldout',
    pkg: 'debian-reference-en_2.100',
    htmlDir: 'usr/share/doc/debian-reference-en/docs',
    pages: ['pr01.en.html', 'ch08.en.html'],
    chrome: ['.navheader', '.navfooter'],
  },
];

export interface HtmlPage {
  family: string;
  split: Split;
  /** Family and page, e.g. "python/library/dbm.html": the page's name in reports and caches. */
  id: string;
  htmlPath: string;
  chrome: string[];
}

export function htmlPages(splits: readonly Split[]): HtmlPage[] {
  return FAMILIES.filter((family) => splits.includes(family.split)).flatMap((family) =>
    family.pages.map((page) => ({
      family: family.name,
      split: family.split,
      id: `${family.name}/${page}`,
      htmlPath: path.join(PDF_BENCH_CACHE, 'docs', family.pkg, family.htmlDir, page),
      chrome: family.chrome,
    })),
  );
}

/** BENCH_PDF_SPLIT=tune|heldout|all (default all). */
export function splitsFromEnv(value = process.env.BENCH_PDF_SPLIT ?? 'all'): Split[] {
  if (value === 'all') return ['tune', 'heldout'];
  if (value === 'tune' || value === 'heldout') return [value];
  throw new Error(`BENCH_PDF_SPLIT must be tune, heldout or all, not ${value}`);
}
