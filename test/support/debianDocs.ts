import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';

/** Gitignored (.sluice/), shared by test runs and the benchmark: each package is fetched once. */
export const DEBIAN_DOCS_DIR = path.resolve(__dirname, '..', '..', '.sluice', 'debian-docs');

/**
 * Real documents nobody here wrote, from Debian's documentation packages: downloaded with
 * `apt-get download` (no installation, no root needed for the download itself) and unpacked with
 * `dpkg-deb -x`. Returns the absolute path of `relativePath` inside the unpacked package.
 * A fresh machine may have no package lists yet, so one failed download triggers `apt-get update`.
 */
export function debianDocPath(pkg: string, relativePath: string): string {
  const root = path.join(DEBIAN_DOCS_DIR, pkg);
  const tree = path.join(root, 'tree');
  if (!existsSync(tree)) fetchPackage(pkg, root, tree);
  const file = path.join(tree, relativePath);
  if (!existsSync(file)) throw new Error(`${relativePath} is not in ${pkg} (looked in ${tree})`);
  return file;
}

function fetchPackage(pkg: string, root: string, tree: string): void {
  mkdirSync(root, { recursive: true });
  const run = (command: string, args: string[]): void => {
    execFileSync(command, args, { cwd: root, stdio: 'pipe', timeout: 300_000 });
  };
  if (!readdirSync(root).some((name) => name.endsWith('.deb'))) {
    try {
      run('apt-get', ['download', pkg]);
    } catch {
      run('apt-get', ['update', '-qq']);
      run('apt-get', ['download', pkg]);
    }
  }
  const deb = readdirSync(root).find((name) => name.startsWith(`${pkg}_`) && name.endsWith('.deb'));
  if (!deb) throw new Error(`apt-get download ${pkg} left no .deb in ${root}`);
  // Unpacked aside and renamed, so a concurrent run never sees half a tree.
  const partial = `${tree}.${process.pid}.partial`;
  rmSync(partial, { recursive: true, force: true });
  run('dpkg-deb', ['-x', deb, partial]);
  try {
    renameSync(partial, tree);
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(tree)) throw error;
  }
}
