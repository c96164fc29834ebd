import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FolderSettings } from '../../contracts/sources';
import { includeFilter, SourceUnavailable, type SourceEntry, type SourceReader } from './sourceReader';

/** True when `dir` is one of `roots` or inside one (both resolved, symbolic links followed). */
export async function isUnderAllowedRoot(dir: string, roots: readonly string[]): Promise<boolean> {
  const real = await fs.realpath(dir).catch(() => null);
  if (real === null) return false;
  for (const root of roots) {
    const realRoot = await fs.realpath(root).catch(() => null);
    if (realRoot !== null && (real === realRoot || real.startsWith(`${realRoot}${path.sep}`))) return true;
  }
  return false;
}

/**
 * A folder on the worker's file system, under a root the operator allowed
 * (SLUICE_SOURCE_FOLDER_ROOTS). Regular files only: symbolic links are not followed, so nothing
 * outside the folder is read. The first page walks the tree (names only) and keeps the sorted
 * names; the next pages read on from them, with a stat per file of the page, so a listing costs one
 * walk. A page asked with another cursor than the one this reader handed out (the sync's previous
 * page ran on another worker) walks again: names kept here never answer another listing.
 */
export function createFolderSource(settings: FolderSettings, allowedRoots: readonly string[]): SourceReader {
  const root = path.resolve(settings.path);
  const included = includeFilter(settings.include);
  const name = `folder ${root}`;
  async function checkedRoot(): Promise<void> {
    const stat = await fs.stat(root).catch(() => null);
    if (!stat?.isDirectory()) throw new SourceUnavailable(`${name} does not exist or is not a folder`, false);
    if (!(await isUnderAllowedRoot(root, allowedRoots)))
      throw new SourceUnavailable(`${name} is not under a root SLUICE_SOURCE_FOLDER_ROOTS allows`, true);
  }
  async function walk(): Promise<string[]> {
    return (await fs.readdir(root, { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile())
      .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
      .filter(included)
      .sort();
  }
  let listing: { names: string[]; next: string | null; at: number } | null = null;
  return {
    name,
    async list(cursor, limit) {
      await checkedRoot();
      if (cursor === null || listing?.next !== cursor) listing = { names: await walk(), next: null, at: 0 };
      const { names } = listing;
      let at = listing.at;
      while (at < names.length && cursor !== null && (names[at] ?? '') <= cursor) at++;
      const page = names.slice(at, at + limit);
      const entries: SourceEntry[] = [];
      for (const p of page) {
        const stat = await fs.lstat(path.join(root, p)).catch(() => null);
        // Gone since the walk: the next sync sees it missing.
        if (!stat?.isFile()) continue;
        entries.push({ path: p, etag: null, mtime: stat.mtime, sizeBytes: stat.size });
      }
      const next = at + limit < names.length ? (page.at(-1) ?? null) : null;
      listing = { names, next, at: at + page.length };
      return { entries, next };
    },
    async open(p): Promise<Readable> {
      await checkedRoot();
      const full = path.join(root, ...p.split('/'));
      if (path.relative(root, full).startsWith('..')) throw new SourceUnavailable(`${p} is outside ${name}`, true);
      const stat = await fs.lstat(full).catch(() => null);
      if (!stat?.isFile()) throw new SourceUnavailable(`${p} is no longer a file of ${name}`, true);
      return createReadStream(full);
    },
  };
}
