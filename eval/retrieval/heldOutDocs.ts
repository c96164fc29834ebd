import { file, html, type CorpusDoc } from './corpusDoc';

const OCTAVE = 'usr/share/doc/octave/octave.html';
const APACHE = 'usr/share/doc/apache2-doc/manual/en';
const SQLITE = 'usr/share/doc/sqlite3';
const LIBREOFFICE = 'usr/share/libreoffice/help/zh-CN/text';
const KICAD = 'usr/share/doc/kicad/help/zh';
const MAN_ZH = 'usr/share/man/zh_CN/man1';

const OCTAVE_PAGES = [
  'Call-by-Value',
  'Paging-Screen-Output',
  'Broadcasting',
  'Integer-Arithmetic',
  'Global-Variables',
  'Persistent-Variables',
  'Short_002dcircuit-Boolean-Operators',
  'Ignoring-Arguments',
  'Function-Locking',
  'Function-Precedence',
  'Manipulating-the-Load-Path',
  'Catching-Errors',
  'Empty-Matrices',
  'Customizing-the-Prompt',
  'Diary-and-Echo-Commands',
  'Basic-Vectorization',
  'Variable_002dlength-Argument-Lists',
  'Automatic-Conversion-of-Data-Types',
  'Increment-Ops',
  'Escape-Sequences-in-String-Constants',
  'Indexed-Assignment-Optimization',
  'Startup-Files',
];
const GIT_PAGES = [
  'git-stash',
  'git-worktree',
  'git-bisect',
  'gitignore',
  'git-gc',
  'git-rerere',
  'git-reflog',
  'git-clean',
];
const APACHE_PAGES = [
  'urlmapping',
  'vhosts/name-based',
  'howto/htaccess',
  'howto/reverse_proxy',
  'logs',
  'stopping',
  'misc/perf-tuning',
];
const SQLITE_PAGES = ['quirks', 'wal', 'datatype3', 'autoinc', 'isolation', 'lang_transaction', 'foreignkeys'];
const LIBREOFFICE_PAGES = [
  'shared/01/05020301',
  'shared/guide/digital_signatures',
  'shared/guide/collab',
  'swriter/guide/finding',
  'shared/optionen/01010400',
  'shared/01/profile_safe_mode',
  'scalc/05/02140000',
  'scalc/guide/relativ_absolut_ref',
  'simpress/guide/presenter_console',
  'shared/guide/cmis-remote-files',
  'shared/01/packagemanager',
  'shared/guide/language_select',
  'swriter/01/02120000',
  'scalc/guide/consolidate',
];
const KICAD_PAGES = ['kicad', 'introduction', 'pl_editor', 'gerbview', 'pcb_calculator'];
const MAN_ZH_PAGES = ['find', 'tar', 'grep', 'cp', 'ls', 'chmod', 'du', 'df', 'sort'];

/**
 * The families added for the family split (split.ts), all held out: software no document of the
 * tuning side comes from, as a user's manuals would be. A long PDF, HTML as shipped, and office
 * files pandoc writes from HTML and from man pages, in English and Simplified Chinese.
 */
export const HELD_OUT_DOCS: CorpusDoc[] = [
  {
    id: 'bash-ref',
    set: 'bash-pdf',
    family: 'bash',
    language: 'en',
    type: 'pdf',
    source: file('bash-doc', 'usr/share/doc/bash/bashref.pdf'),
    ci: false,
  },
  {
    id: 'octave-manual',
    set: 'octave-docx',
    family: 'octave',
    language: 'en',
    type: 'docx',
    source: {
      kind: 'pandoc',
      pkg: 'octave-doc',
      inputs: OCTAVE_PAGES.map((p) => `${OCTAVE}/${p}.html`),
      to: 'docx',
      name: 'octave-manual',
    },
    // The CI size's one held-out family: the smallest of them (82 child chunks).
    ci: true,
  },
  ...APACHE_PAGES.map((page) =>
    html({
      id: `apache-${page.replace('/', '-')}`,
      set: 'apache-html',
      family: 'apache-httpd',
      language: 'en',
      pkg: 'apache2-doc',
      relPath: `${APACHE}/${page}.html`,
    }),
  ),
  {
    id: 'git-slides',
    set: 'git-pptx',
    family: 'git',
    language: 'en',
    type: 'pptx',
    source: {
      kind: 'pandoc',
      pkg: 'git-doc',
      inputs: GIT_PAGES.map((p) => `usr/share/doc/git-doc/${p}.html`),
      to: 'pptx',
      name: 'git-slides',
    },
    ci: false,
  },
  ...SQLITE_PAGES.map((page) =>
    html({
      id: `sqlite-${page}`,
      set: 'sqlite-html',
      family: 'sqlite',
      language: 'en',
      pkg: 'sqlite3-doc',
      relPath: `${SQLITE}/${page}.html`,
    }),
  ),
  ...LIBREOFFICE_PAGES.map((page) =>
    html({
      id: `libreoffice-${page.split('/').slice(-2).join('-')}`,
      set: 'libreoffice-zh',
      family: 'libreoffice',
      language: 'zh',
      pkg: 'libreoffice-help-zh-cn',
      relPath: `${LIBREOFFICE}/${page}.html`,
    }),
  ),
  ...KICAD_PAGES.map((page) =>
    html({
      id: `kicad-${page}`,
      set: 'kicad-zh',
      family: 'kicad',
      language: 'zh',
      pkg: 'kicad-doc-zh',
      relPath: `${KICAD}/${page}.html`,
    }),
  ),
  {
    id: 'man-zh',
    set: 'man-zh-docx',
    family: 'gnu-tools-man',
    language: 'zh',
    type: 'docx',
    source: {
      kind: 'pandoc',
      pkg: 'manpages-zh',
      inputs: MAN_ZH_PAGES.map((p) => `${MAN_ZH}/${p}.1.gz`),
      to: 'docx',
      name: 'man-zh',
      from: 'man',
    },
    ci: false,
  },
];
