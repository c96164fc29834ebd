import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gitSettingsSchema } from '../../contracts/sources';
import { createGitSource } from '../../stores/sources/gitSource';
import { SourceUnavailable, type SourceEntry, type SourceReader } from '../../stores/sources/sourceReader';

// The git reader against a real repository: a bare origin under an allowed root, pushed to from a
// work clone, read through the reader's own mirror.

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sluice-git-source-'));
const allowed = path.join(root, 'allowed');
const origin = path.join(allowed, 'origin.git');
const work = path.join(root, 'work');
const outside = path.join(root, 'outside.git');
const policy = { allowPrivate: false };

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
    cwd,
    encoding: 'utf8',
    // git's advice (an empty repository cloned) is noise in the test output.
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(work, file)), { recursive: true });
  fs.writeFileSync(path.join(work, file), text);
}

function reader(settings: Record<string, unknown>, roots = [allowed]): SourceReader {
  return createGitSource(gitSettingsSchema.parse({ url: pathToFileURL(origin).href, ...settings }), {
    folderRoots: roots,
    outbound: policy,
    mirrorDir: path.join(root, 'mirrors'),
  });
}

async function listAll(source: SourceReader, limit: number): Promise<{ entries: SourceEntry[]; pages: number }> {
  const entries: SourceEntry[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page = await source.list(cursor, limit);
    entries.push(...page.entries);
    cursor = page.next;
    pages++;
  } while (cursor !== null);
  return { entries, pages };
}

async function text(source: SourceReader, p: string): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await source.open(p)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function refusal(promise: Promise<unknown>): Promise<SourceUnavailable> {
  const error: unknown = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SourceUnavailable);
  return error as SourceUnavailable;
}

beforeAll(() => {
  fs.mkdirSync(allowed);
  git(root, 'init', '--quiet', '--bare', '--initial-branch=main', origin);
  git(root, 'init', '--quiet', '--bare', '--initial-branch=main', outside);
  git(root, 'clone', '--quiet', origin, work);
  git(work, 'checkout', '--quiet', '-B', 'main');
  write('README.md', '# readme\n');
  write('docs/a.md', 'alpha\n');
  write('docs/b.md', 'beta\n');
  write('docs/old-name.md', 'moving\n');
  write('gone.txt', 'to be deleted\n');
  write('notes/c.txt', 'gamma\n');
  fs.symlinkSync('README.md', path.join(work, 'link.md'));
  git(work, 'add', '-A');
  git(work, 'commit', '--quiet', '-m', 'first');
  git(work, 'push', '--quiet', 'origin', 'main');
});

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('git source', () => {
  let first: SourceEntry[] = [];

  it('lists the branch’s regular files in path order, a page at a time, the blob id as etag', async () => {
    const source = reader({});
    const { entries, pages } = await listAll(source, 2);
    first = entries;
    expect(entries.map((e) => e.path)).toEqual([
      'README.md',
      'docs/a.md',
      'docs/b.md',
      'docs/old-name.md',
      'gone.txt',
      'notes/c.txt',
    ]);
    expect(pages).toBe(3);
    const readme = entries[0] as SourceEntry;
    expect(readme.etag).toBe(git(work, 'rev-parse', 'HEAD:README.md').trim());
    expect(readme.sizeBytes).toBe('# readme\n'.length);
    expect(readme.mtime).toBeNull();
    expect(await text(source, 'docs/a.md')).toBe('alpha\n');
  });

  it('keeps only the include globs', async () => {
    const { entries } = await listAll(reader({ include: ['docs/**'] }), 10);
    expect(entries.map((e) => e.path)).toEqual(['docs/a.md', 'docs/b.md', 'docs/old-name.md']);
  });

  it('sees a change, a deletion, a rename and an addition after the next push; only the changed file’s etag moves', async () => {
    write('docs/a.md', 'alpha, changed\n');
    fs.rmSync(path.join(work, 'gone.txt'));
    git(work, 'mv', 'docs/old-name.md', 'docs/new-name.md');
    write('added.txt', 'new\n');
    git(work, 'add', '-A');
    git(work, 'commit', '--quiet', '-m', 'second');
    git(work, 'push', '--quiet', 'origin', 'main');

    const source = reader({});
    const { entries } = await listAll(source, 4);
    expect(entries.map((e) => e.path)).toEqual([
      'README.md',
      'added.txt',
      'docs/a.md',
      'docs/b.md',
      'docs/new-name.md',
      'notes/c.txt',
    ]);
    const before = new Map(first.map((e) => [e.path, e.etag]));
    const after = new Map(entries.map((e) => [e.path, e.etag]));
    expect(after.get('docs/a.md')).not.toBe(before.get('docs/a.md'));
    for (const kept of ['README.md', 'docs/b.md', 'notes/c.txt']) expect(after.get(kept)).toBe(before.get(kept));
    // A renamed file keeps its blob: the sync can tell the move from new content.
    expect(after.get('docs/new-name.md')).toBe(before.get('docs/old-name.md'));
    expect(await text(source, 'docs/a.md')).toBe('alpha, changed\n');
    const gone = await refusal(source.open('gone.txt'));
    expect(gone.permanent).toBe(true);
  });

  it('refuses a branch the repository does not have, permanently', async () => {
    const error = await refusal(reader({ branch: 'no-such-branch' }).list(null, 10));
    expect(error.permanent).toBe(true);
    expect(error.message).toMatch(/no-such-branch/);
  });

  it('refuses a file:// URL outside the allowed roots, permanently', async () => {
    const source = createGitSource(gitSettingsSchema.parse({ url: pathToFileURL(outside).href }), {
      folderRoots: [allowed],
      outbound: policy,
      mirrorDir: path.join(root, 'mirrors'),
    });
    const error = await refusal(source.list(null, 10));
    expect(error.permanent).toBe(true);
    expect(error.message).toMatch(/SLUICE_SOURCE_FOLDER_ROOTS/);
  });

  it('refuses ssh, git:// and an https host the outbound policy refuses, permanently', async () => {
    for (const url of ['ssh://git@example.com/r.git', 'git://example.com/r.git', 'https://127.0.0.1/r.git']) {
      const source = createGitSource(gitSettingsSchema.parse({ url }), {
        folderRoots: [allowed],
        outbound: policy,
        mirrorDir: path.join(root, 'mirrors'),
      });
      const error = await refusal(source.list(null, 10));
      expect(error.permanent).toBe(true);
    }
  });
});
