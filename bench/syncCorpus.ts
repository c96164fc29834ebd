import fs from 'node:fs';
import path from 'node:path';
import { evalDocsDir } from '../eval/retrieval/corpus';
import { pinnedPackageTree } from '../eval/retrieval/sources/fetchPackage';

/** English manuals of the retrieval eval's pinned packages: HTML pages, real prose and tables. */
const PACKAGES = [
  'postgresql-doc-15',
  'debian-reference-en',
  'installation-guide-amd64',
  'debmake-doc',
  'maint-guide',
  'debian-faq',
];

function htmlFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.html'))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

/**
 * Copies `count` HTML pages of the pinned manuals into `folder` (package/relative path), all
 * with one modification time, and returns their paths relative to the folder. Pages are taken
 * package by package in path order, so a run of the same size reads the same pages.
 */
export function writeSyncCorpus(dataDir: string, folder: string, count: number): string[] {
  const written: string[] = [];
  for (const pkg of PACKAGES) {
    const tree = pinnedPackageTree(evalDocsDir(dataDir), pkg);
    for (const file of htmlFiles(tree)) {
      if (written.length >= count) return written;
      const relative = path.join(pkg, path.relative(tree, file)).split(path.sep).join('/');
      const target = path.join(folder, relative);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.copyFileSync(file, target);
      fs.utimesSync(target, 1_700_000_000, 1_700_000_000);
      written.push(relative);
    }
  }
  return written;
}

/**
 * One paragraph of the page gets one more sentence: the first `</p>` after the middle of the file.
 * Returns false for a page without a paragraph there (it is not edited).
 */
export function editOneParagraph(file: string, mtimeSeconds: number): boolean {
  const html = fs.readFileSync(file, 'utf8');
  const at = html.indexOf('</p>', Math.floor(html.length / 2));
  if (at < 0) return false;
  fs.writeFileSync(file, `${html.slice(0, at)} This sentence was added by the sync bench.${html.slice(at)}`);
  fs.utimesSync(file, mtimeSeconds, mtimeSeconds);
  return true;
}
