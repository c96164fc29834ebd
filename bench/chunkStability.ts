import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chunkMarkdown, DEFAULT_CHUNKER_OPTIONS } from '../chunker/chunkMarkdown';
import { loadConfig } from '../config/config';
import { evalDocsDir } from '../eval/retrieval/corpus';
import { pinnedPackageTree } from '../eval/retrieval/sources/fetchPackage';
import { htmlToMarkdown } from '../parsers/htmlToMarkdown';
import { writeBenchResult } from './benchResults';
import { percentile, round } from './searchMeasures';

/**
 * `npm run bench:chunk-stability`: how many child chunks a one-paragraph edit changes, which is
 * how many a replacement of the document's content embeds again (client/replaceContent.ts: a
 * child whose text an older chunk had gets that chunk's vectors). Every STRIDE-th HTML page of
 * two pinned manuals (English prose and PostgreSQL's reference), through the worker's HTML parser
 * and the default chunker; EDITS paragraphs of each page get a sentence appended, one at a time,
 * and the children of the edited page that no child of the original had are counted.
 */
const PACKAGES = ['debian-reference-en', 'postgresql-doc-15'];
const STRIDE = Number(process.env.BENCH_STABILITY_STRIDE ?? 10);
const EDITS = 5;
const ADDED = ' This sentence was added by an edit of the paragraph.';

function htmlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.html'))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

const children = (markdown: string): string[] =>
  chunkMarkdown('d', markdown, DEFAULT_CHUNKER_OPTIONS)
    .filter((c) => c.kind === 'child')
    .map((c) => c.text);

/** The changed children of each of EDITS edits of the page's prose paragraphs, spread over the page. */
function editsOf(markdown: string): number[] {
  const original = new Set(children(markdown));
  const paragraphs = markdown.split('\n\n');
  const prose = paragraphs.flatMap((p, i) => (/^[A-Za-z]/.test(p) && p.length >= 80 ? [i] : []));
  if (prose.length === 0) return [];
  const picks = new Set(
    Array.from({ length: EDITS }, (_, k) => prose[Math.floor((k * prose.length) / EDITS)] as number),
  );
  return [...picks].map((at) => {
    const edited = paragraphs.map((p, i) => (i === at ? p + ADDED : p)).join('\n\n');
    return children(edited).filter((text) => !original.has(text)).length;
  });
}

const cacheDir = evalDocsDir(loadConfig().dataDir);
const counts: number[] = [];
let pages = 0;
let childCount = 0;
for (const pkg of PACKAGES) {
  const files = htmlFiles(pinnedPackageTree(cacheDir, pkg)).filter((_, i) => i % STRIDE === 0);
  for (const file of files) {
    const markdown = htmlToMarkdown(readFileSync(file, 'utf8'));
    pages += 1;
    childCount += children(markdown).length;
    counts.push(...editsOf(markdown));
  }
}
counts.sort((a, b) => a - b);
writeBenchResult('chunk-stability.json', {
  packages: PACKAGES,
  pages,
  children: childCount,
  edits: counts.length,
  changedChildrenPerEdit: {
    mean: round(counts.reduce((a, b) => a + b, 0) / Math.max(1, counts.length), 2),
    p50: percentile(counts, 50),
    p90: percentile(counts, 90),
    max: counts.at(-1) ?? 0,
  },
  editsOverThree: counts.filter((n) => n > 3).length,
});
