import { file, html, type CorpusDoc } from './corpusDoc';
import { HELD_OUT_DOCS } from './heldOutDocs';

export type { CorpusDoc, Language } from './corpusDoc';

const DEBREF = 'usr/share/debian-reference';
const FAQ = 'usr/share/doc/debian/FAQ';
const INSTALL = 'usr/share/doc/installation-guide-amd64';
const FAQ_PAGES = ['basic-defs', 'pkg-basics', 'pkgtools', 'uptodate', 'support'];
const MAINT_PAGES = ['dreq', 'build', 'checkit', 'upload'];

/**
 * The sets the fusion defaults were first tuned on: reported apart from the others,
 * and their questions never count as held out.
 */
export const TUNED_SETS: ReadonlySet<string> = new Set(['r-intro-pdf', 'debref-en', 'pg-docs', 'debref-zh']);

const TUNED_DOCS: CorpusDoc[] = [
  {
    id: 'r-intro',
    set: 'r-intro-pdf',
    family: 'r',
    language: 'en',
    type: 'pdf',
    source: file('r-doc-pdf', 'usr/share/R/doc/manual/R-intro.pdf'),
    ci: false,
  },
  ...['03', '04', '05', '10'].map((ch) =>
    html({
      id: `debref-en-ch${ch}`,
      set: 'debref-en',
      family: 'debian-reference',
      language: 'en',
      pkg: 'debian-reference-en',
      relPath: `${DEBREF}/ch${ch}.en.html`,
    }),
  ),
  ...['backup-dump', 'routine-vacuuming', 'indexes-partial', 'auth-pg-hba-conf', 'transaction-iso'].map((page) =>
    html({
      id: `pg-${page.replace(/-conf$/, '')}`,
      set: 'pg-docs',
      family: 'postgresql',
      language: 'en',
      pkg: 'postgresql-doc-15',
      relPath: `usr/share/doc/postgresql-doc-15/html/${page}.html`,
    }),
  ),
  ...['03', '04', '05', '10'].map((ch) =>
    html({
      id: `debref-zh-ch${ch}`,
      set: 'debref-zh',
      family: 'debian-reference',
      language: 'zh',
      pkg: 'debian-reference-zh-cn',
      relPath: `${DEBREF}/ch${ch}.zh-cn.html`,
    }),
  ),
];

/**
 * The sets added after the first tuning: FAQ pages, long PDFs, office files written by
 * pandoc and openpyxl, a CSV, a slide deck and tables, in English and Simplified Chinese. Their
 * families are on the tuning side of the family split (split.ts).
 */
const NEW_DOCS: CorpusDoc[] = [
  ...FAQ_PAGES.map((page) =>
    html({
      id: `faq-en-${page}`,
      set: 'faq-en',
      family: 'debian-faq',
      language: 'en',
      pkg: 'debian-faq',
      relPath: `${FAQ}/${page}.en.html`,
      ci: true,
    }),
  ),
  ...FAQ_PAGES.map((page) =>
    html({
      id: `faq-zh-${page}`,
      set: 'faq-zh',
      family: 'debian-faq',
      language: 'zh',
      pkg: 'debian-faq-zh-cn',
      relPath: `${FAQ}/zh-cn/${page}.zh-cn.html`,
      ci: true,
    }),
  ),
  {
    id: 'r-faq',
    set: 'r-faq-pdf',
    family: 'r',
    language: 'en',
    type: 'pdf',
    source: file('r-doc-pdf', 'usr/share/R/doc/manual/R-FAQ.pdf'),
    ci: false,
  },
  {
    id: 'debmake-zh',
    set: 'debmake-zh-pdf',
    family: 'debmake',
    language: 'zh',
    type: 'pdf',
    source: file('debmake-doc', 'usr/share/doc/debmake-doc/debmake-doc.zh-cn.pdf'),
    ci: false,
  },
  {
    id: 'maint-guide-en',
    set: 'maint-guide-docx',
    family: 'debian-maint-guide',
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
    family: 'debian-maint-guide',
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
    family: 'debian-installer',
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
    html({
      id: `install-zh-${page}`,
      set: 'install-zh',
      family: 'debian-installer',
      language: 'zh',
      pkg: 'installation-guide-amd64',
      relPath: `${INSTALL}/zh_CN/${page}.html`,
      ci: true,
    }),
  ),
  {
    id: 'debian-releases',
    set: 'releases-csv',
    family: 'distro-info',
    language: 'en',
    type: 'csv',
    source: file('distro-info-data', 'usr/share/distro-info/debian.csv'),
    ci: true,
  },
  {
    id: 'ubuntu-releases',
    set: 'ubuntu-xlsx',
    family: 'distro-info',
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

export const CORPUS: CorpusDoc[] = [...TUNED_DOCS, ...NEW_DOCS, ...HELD_OUT_DOCS];
