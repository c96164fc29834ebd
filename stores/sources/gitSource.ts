import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import type { GitSettings } from '../../contracts/sources';
import type { OutboundPolicy } from '../../outbound/outboundHttp';
import { GitFailed, runGit, spawnGit } from './gitProcess';
import { checkedRemote, type GitRemote } from './gitRemote';
import { readTree, type TreeEntry } from './gitTree';
import { includeFilter, SourceUnavailable, type SourceEntry, type SourceReader } from './sourceReader';

/** A fetch of a large repository takes minutes; the listing activity has ten. */
const FETCH_TIMEOUT_MS = 8 * 60_000;
const LOCAL_TIMEOUT_MS = 60_000;
/** A blob is streamed to the object store: the size limits of an upload apply there. */
const READ_TIMEOUT_MS = 5 * 60_000;

export interface GitSourceOptions {
  folderRoots: readonly string[];
  outbound: OutboundPolicy;
  /** Where the mirrors live, one bare repository per URL and branch. */
  mirrorDir: string;
}

/** What git said, as a SourceUnavailable: permanent where the repository or branch is not there or refuses us. */
function classified(error: unknown, what: string): SourceUnavailable {
  if (error instanceof SourceUnavailable) return error;
  if (!(error instanceof GitFailed)) return new SourceUnavailable(`${what}: ${(error as Error).message}`, false);
  const permanent =
    !error.timedOut &&
    /couldn't find remote ref|not a git repository|does not appear to be a git repository|repository .* not found|could not read Username|Authentication failed|error: 40[134]|not allowed/i.test(
      error.stderr,
    );
  return new SourceUnavailable(`${what}: ${error.message}`, permanent, { cause: error });
}

/**
 * A branch of a git repository, read from a bare mirror the worker keeps under its data dir. A
 * listing from the start fetches the branch's tip (shallow: only its tree is read, never its
 * history; only the one branch, not every ref a full mirror would copy), later pages read the
 * mirror as it is. Entries are the branch's regular files (symbolic links and submodules are
 * skipped: neither has bytes of its own here), the blob id as etag, no mtime (git keeps none).
 */
export function createGitSource(settings: GitSettings, options: GitSourceOptions): SourceReader {
  const included = includeFilter(settings.include);
  const branchRef = `refs/heads/${settings.branch}`;
  const mirror = path.join(
    options.mirrorDir,
    createHash('sha256').update(`${settings.url}\n${settings.branch}`).digest('hex'),
  );
  const name = `git ${withoutCredentials(settings.url)} ${settings.branch}`;
  const local = { cwd: mirror, timeoutMs: LOCAL_TIMEOUT_MS };

  async function checkedBranch(): Promise<void> {
    const valid = await runGit(['check-ref-format', branchRef], { ...local, cwd: options.mirrorDir, maxBytes: 1024 })
      .then(() => true)
      .catch(() => false);
    if (!valid) throw new SourceUnavailable(`${name}: ${settings.branch} is not a valid branch name`, true);
  }

  async function ensureMirror(): Promise<void> {
    if (await fs.stat(path.join(mirror, 'HEAD')).catch(() => null)) return;
    // Made beside its place and moved there, so a second worker never sees half a repository.
    const made = `${mirror}.${randomUUID()}`;
    await runGit(['init', '--bare', '--quiet', made], { ...local, cwd: options.mirrorDir, maxBytes: 4096 });
    await fs.rename(made, mirror).catch(async (error: NodeJS.ErrnoException) => {
      await fs.rm(made, { recursive: true, force: true });
      if (error.code !== 'EEXIST' && error.code !== 'ENOTEMPTY') throw error;
    });
  }

  async function fetchBranch(remote: GitRemote): Promise<void> {
    await ensureMirror();
    await runGit(['fetch', '--quiet', '--no-tags', '--depth=1', '--', remote.url, `+${branchRef}:${branchRef}`], {
      cwd: mirror,
      timeoutMs: FETCH_TIMEOUT_MS,
      maxBytes: 1 << 20,
      transport: remote.transport,
    });
  }

  /** The listed commit: the mirror's branch, fetched first when the listing starts (or the mirror was lost). */
  async function tip(fetch: boolean): Promise<string> {
    await fs.mkdir(options.mirrorDir, { recursive: true });
    await checkedBranch();
    const remote = await checkedRemote(settings.url, options.folderRoots, options.outbound);
    const mirrored = await fs.stat(path.join(mirror, 'HEAD')).catch(() => null);
    if (fetch || !mirrored) await fetchBranch(remote);
    const commit = await runGit(['rev-parse', '--verify', '--quiet', `${branchRef}^{commit}`], {
      ...local,
      maxBytes: 1024,
    }).catch(() => null);
    if (commit === null) throw new SourceUnavailable(`${name}: the branch ${settings.branch} does not exist`, true);
    return commit.trim();
  }

  return {
    name,
    async list(cursor, limit) {
      try {
        const commit = await tip(cursor === null);
        const files: TreeEntry[] = [];
        await readTree(commit, local, (entry) => {
          if (entry.mode.startsWith('100') && (cursor === null || entry.path > cursor) && included(entry.path))
            files.push(entry);
        });
        files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
        const page = files.slice(0, limit);
        const entries: SourceEntry[] = page.map((f) => ({ path: f.path, etag: f.id, mtime: null, sizeBytes: f.size }));
        return { entries, next: files.length > limit ? (page.at(-1)?.path ?? null) : null };
      } catch (error) {
        throw classified(error, `listing ${name}`);
      }
    },
    async open(p): Promise<Readable> {
      let blob: TreeEntry | undefined;
      try {
        const commit = await tip(false);
        await readTree(
          commit,
          local,
          (entry) => {
            if (entry.path === p && entry.mode.startsWith('100')) blob = entry;
          },
          p,
        );
      } catch (error) {
        throw classified(error, `reading ${p} of ${name}`);
      }
      if (!blob) throw new SourceUnavailable(`${p} is no longer a file of ${name}`, true);
      return blobStream(blob.id, local.cwd);
    },
  };
}

/** The URL as messages may show it (checkedRemote refuses one with credentials, but names are made before). */
function withoutCredentials(raw: string): string {
  try {
    const url = new URL(raw);
    url.username = '';
    url.password = '';
    return url.href;
  } catch {
    return '(an invalid URL)';
  }
}

/** The blob's bytes; the stream fails (rather than ends short) when git fails or runs out of time. */
function blobStream(id: string, cwd: string): Readable {
  const git = spawnGit(['cat-file', 'blob', id], { cwd, timeoutMs: READ_TIMEOUT_MS });
  const out = new PassThrough();
  git.stdout.pipe(out, { end: false });
  git.done.then(
    () => out.end(),
    (error: unknown) => out.destroy(classified(error, `reading blob ${id}`)),
  );
  // The consumer gave up: git need not go on.
  out.on('close', () => git.stop());
  return out;
}
