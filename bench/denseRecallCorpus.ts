import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pinnedPackageTree } from '../eval/retrieval/sources/fetchPackage';
import { htmlToMarkdown } from '../parsers/htmlToMarkdown';

/**
 * The real passages of `npm run bench:dense-recall`: every HTML page of pinned Debian manuals
 * (eval/retrieval/sources/pinnedPackages.ts), English and Chinese, through the HTML parser the
 * worker uses, cut at blank lines into passages of at most PASSAGE_CHARS. Not the worker's
 * chunker: what is measured is how the coarse pass ranks real embeddings, and any cut of real
 * prose gives those.
 */
export const RECALL_PACKAGES = [
  'postgresql-doc-15',
  'debian-reference-en',
  'debian-reference-zh-cn',
  'installation-guide-amd64',
  'debmake-doc',
  'maint-guide',
  'maint-guide-zh-cn',
  'debian-faq',
  'debian-faq-zh-cn',
];
const PASSAGE_CHARS = 800;
const MIN_PASSAGE_CHARS = 80;

function htmlFiles(dir: string): string[] {
  // Symbolic links (a package's links into other packages) are neither: skipped.
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return htmlFiles(full);
      return entry.isFile() && entry.name.endsWith('.html') ? [full] : [];
    });
}

function passagesOf(markdown: string): string[] {
  const passages: string[] = [];
  let current = '';
  for (const paragraph of markdown.split(/\n\s*\n/)) {
    const text = paragraph.trim().slice(0, PASSAGE_CHARS);
    if (current.length > 0 && current.length + text.length + 2 > PASSAGE_CHARS) {
      passages.push(current);
      current = '';
    }
    current = current.length > 0 ? `${current}\n\n${text}` : text;
  }
  if (current.length > 0) passages.push(current);
  return passages.filter((p) => p.length >= MIN_PASSAGE_CHARS);
}

/** The passages, in a fixed order (packages, then files by name), at most `limit` of them. */
export function recallPassages(cacheDir: string, limit: number): string[] {
  const passages: string[] = [];
  for (const pkg of RECALL_PACKAGES) {
    for (const file of htmlFiles(pinnedPackageTree(cacheDir, pkg))) {
      for (const passage of passagesOf(htmlToMarkdown(readFileSync(file, 'utf8')))) {
        passages.push(passage);
        if (passages.length >= limit) return passages;
      }
    }
  }
  return passages;
}
