import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { PINNED_PACKAGES } from './pinnedPackages';

/** Unpacks into `dir` atomically: built aside and renamed, so a concurrent run never sees half a tree. */
export function buildAtomically(dir: string, build: (partial: string) => void): void {
  if (existsSync(dir)) return;
  const partial = `${dir}.${process.pid}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  try {
    build(partial);
    renameSync(partial, dir);
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(dir)) throw error;
  }
}

function run(command: string, args: string[], cwd: string): void {
  execFileSync(command, args, { cwd, stdio: 'pipe', timeout: 300_000 });
}

/**
 * The unpacked tree of a pinned package, cached under `cacheDir/<pkg>_<version>/tree`:
 * `apt-get download <pkg>=<version>` (no root, no installation), its sha256 checked against the
 * pin, then `dpkg-deb -x`. A fresh machine may have no package lists yet, so one failed download
 * triggers `apt-get update`. A mismatched hash is an error, never a silently different corpus.
 */
export function pinnedPackageTree(cacheDir: string, pkg: string): string {
  const pin = PINNED_PACKAGES[pkg];
  if (!pin) throw new Error(`${pkg} has no pin in eval/retrieval/sources/pinnedPackages.ts`);
  const root = path.join(cacheDir, `${pkg}_${pin.version}`);
  const tree = path.join(root, 'tree');
  if (existsSync(tree)) return tree;
  mkdirSync(root, { recursive: true });
  const findDeb = (): string | undefined =>
    readdirSync(root).find((n) => n.startsWith(`${pkg}_`) && n.endsWith('.deb'));
  if (!findDeb()) {
    try {
      run('apt-get', ['download', `${pkg}=${pin.version}`], root);
    } catch {
      run('apt-get', ['update', '-qq'], root);
      run('apt-get', ['download', `${pkg}=${pin.version}`], root);
    }
  }
  const deb = findDeb();
  if (!deb) throw new Error(`apt-get download ${pkg}=${pin.version} left no .deb in ${root}`);
  const sha256 = createHash('sha256')
    .update(readFileSync(path.join(root, deb)))
    .digest('hex');
  if (sha256 !== pin.sha256) {
    rmSync(path.join(root, deb));
    throw new Error(`${deb}: sha256 ${sha256}, pinned ${pin.sha256}`);
  }
  buildAtomically(tree, (partial) => run('dpkg-deb', ['-x', deb, partial], root));
  return tree;
}
