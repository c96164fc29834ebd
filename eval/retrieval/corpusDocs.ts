import type { SourceFileType } from '../../parsers/detectFileType';
import type { DocSource } from './sources/docSource';

export type Language = 'en' | 'zh';

export interface CorpusDoc {
  /** Short stable name; questions point at it, and it seeds the document id. */
  id: string;
  /** The document set it belongs to: results are reported per set. */
  set: string;
  language: Language;
  type: SourceFileType;
  source: DocSource;
  /** Part of the reduced (CI) corpus. */
  ci: boolean;
}

const DEBREF = 'usr/share/debian-reference';
const FAQ = 'usr/share/doc/debian/FAQ';
const INSTALL = 'usr/share/doc/installation-guide-amd64';
const FAQ_PAGES = ['basic-defs', 'pkg-basics', 'pkgtools', 'uptodate', 'support'];
const MAINT_PAGES = ['dreq', 'build', 'checkit', 'upload'];

const file = (pkg: string, relPath: string): DocSource => ({ kind: 'file', pkg, relPath });
const html = (id: string, set: string, language: Language, pkg: string, relPath: string, ci = false): CorpusDoc => ({
  id,
  set,
  language,
  type: 'html',
  source: file(pkg, relPath),
  ci,
});

/**
 * The sets the fusion defaults were first tuned on (issue 25): reported apart from the others,
 * and their questions never count as held out.
 */
export const TUNED_SETS: ReadonlySet<string> = new Set(['r-intro-pdf', 'debref-en', 'pg-docs', 'debref-zh']);

const TUNED_DOCS: CorpusDoc[] = [
  {
    id: 'r-intro',
    set: 'r-intro-pdf',
    language: 'en',
    type: 'pdf',
    source: file('r-doc-pdf', 'usr/share/R/doc/manual/R-intro.pdf'),
    ci: false,
  },
  ...['03', '04', '05', '10'].map((ch) =>
    html(`debref-en-ch${ch}`, 'debref-en', 'en', 'debian-reference-en', `${DEBREF}/ch${ch}.en.html`),
  ),
  ...['backup-dump', 'routine-vacuuming', 'indexes-partial', 'auth-pg-hba-conf', 'transaction-iso'].map((page) =>
    html(
      `pg-${page.replace(/-conf$/, '')}`,
      'pg-docs',
      'en',
      'postgresql-doc-15',
      `usr/share/doc/postgresql-doc-15/html/${page}.html`,
    ),
  ),
  ...['03', '04', '05', '10'].map((ch) =>
    html(`debref-zh-ch${ch}`, 'debref-zh', 'zh', 'debian-reference-zh-cn', `${DEBREF}/ch${ch}.zh-cn.html`),
  ),
];

/**
 * Sets no setting was ever chosen on: FAQ pages, long PDFs, office files written by pandoc and
 * openpyxl, a CSV, a slide deck and tables, in English and Simplified Chinese.
 */
const NEW_DOCS: CorpusDoc[] = [
  ...FAQ_PAGES.map((page) => html(`faq-en-${page}`, 'faq-en', 'en', 'debian-faq', `${FAQ}/${page}.en.html`, true)),
  ...FAQ_PAGES.map((page) =>
    html(`faq-zh-${page}`, 'faq-zh', 'zh', 'debian-faq-zh-cn', `${FAQ}/zh-cn/${page}.zh-cn.html`, true),
  ),
  {
    id: 'r-faq',
    set: 'r-faq-pdf',
    language: 'en',
    type: 'pdf',
    source: file('r-doc-pdf', 'usr/share/R/doc/manual/R-FAQ.pdf'),
    ci: false,
  },
  {
    id: 'debmake-zh',
    set: 'debmake-zh-pdf',
    language: 'zh',
    type: 'pdf',
    source: file('debmake-doc', 'usr/share/doc/debmake-doc/debmake-doc.zh-cn.pdf'),
    ci: false,
  },
  {
    id: 'maint-guide-en',
    set: 'maint-guide-docx',
    language: 'en',
    type: 'docx',
    source: {
      kind: 'pandoc',
      pkg: 'maint-guide',
      inputs: MAINT_PAGES.map((p) => `usr/share/doc/maint-guide/html/${p}.en.html`),
      to: 'docx',
      name: 'maint-guide-en',
    },
    ci: false,
  },
  {
    id: 'maint-guide-zh',
    set: 'maint-guide-zh-docx',
    language: 'zh',
    type: 'docx',
    source: {
      kind: 'pandoc',
      pkg: 'maint-guide-zh-cn',
      inputs: MAINT_PAGES.map((p) => `usr/share/doc/maint-guide-zh-cn/html/${p}.zh-cn.html`),
      to: 'docx',
      name: 'maint-guide-zh',
    },
    ci: false,
  },
  {
    id: 'install-slides',
    set: 'install-pptx',
    language: 'en',
    type: 'pptx',
    source: {
      kind: 'pandoc',
      pkg: 'installation-guide-amd64',
      inputs: ['ch03s01', 'ch03s02', 'ch03s03', 'ch03s04', 'ch07s01', 'ch07s02', 'ch07s03', 'ch08s01', 'ch08s06'].map(
        (p) => `${INSTALL}/en/${p}.html`,
      ),
      to: 'pptx',
      name: 'install-slides',
    },
    ci: false,
  },
  ...['ch05s03', 'ch05s04', 'ch06s04', 'apds02', 'ch02s05'].map((page) =>
    html(`install-zh-${page}`, 'install-zh', 'zh', 'installation-guide-amd64', `${INSTALL}/zh_CN/${page}.html`, true),
  ),
  {
    id: 'debian-releases',
    set: 'releases-csv',
    language: 'en',
    type: 'csv',
    source: file('distro-info-data', 'usr/share/distro-info/debian.csv'),
    ci: true,
  },
  {
    id: 'ubuntu-releases',
    set: 'ubuntu-xlsx',
    language: 'en',
    type: 'xlsx',
    source: {
      kind: 'xlsx',
      pkg: 'distro-info-data',
      csv: 'usr/share/distro-info/ubuntu.csv',
      sheet: 'Ubuntu releases',
      name: 'ubuntu-releases',
    },
    ci: true,
  },
];

export const CORPUS: CorpusDoc[] = [...TUNED_DOCS, ...NEW_DOCS];
