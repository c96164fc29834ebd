import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { chunkMarkdown, DEFAULT_CHUNKER_OPTIONS } from '../chunker/chunkMarkdown';

/** Cached under .sluice/ (gitignored): the download happens once per checkout. */
const CACHE_DIR = path.resolve(__dirname, '..', '.sluice', 'bench-corpus');
const HTML_DIR = path.join(CACHE_DIR, 'x', 'usr', 'share', 'doc', 'postgresql-doc-15', 'html');

export interface CorpusFile {
  fileName: string;
  /** Where the bytes are, or the bytes themselves for generated documents. */
  source: { path: string } | { text: string };
}

/**
 * Debian's postgresql-doc-15: ~1,170 real HTML pages of very uneven size (2 KB to 440 KB), a
 * corpus anyone can fetch again with apt. Downloaded with `apt-get download` (no root needed,
 * nothing installed) and unpacked with `dpkg-deb -x`.
 */
export function ensureCorpus(): string[] {
  if (!fs.existsSync(HTML_DIR)) {
    fs.mkdirSync(CACHE_DIR, { recursive: true });
    execFileSync('apt-get', ['download', 'postgresql-doc-15'], { cwd: CACHE_DIR, stdio: 'inherit' });
    const deb = fs.readdirSync(CACHE_DIR).find((f) => /^postgresql-doc-15_.*\.deb$/.test(f));
    if (!deb) throw new Error(`apt-get download left no postgresql-doc-15 .deb in ${CACHE_DIR}`);
    execFileSync('dpkg-deb', ['-x', deb, 'x'], { cwd: CACHE_DIR, stdio: 'inherit' });
  }
  return fs
    .readdirSync(HTML_DIR)
    .filter((f) => f.endsWith('.html'))
    .sort()
    .map((f) => path.join(HTML_DIR, f));
}

/** `n` pages spread evenly over the sorted list, so a reduced run keeps the size mix. */
export function pickPages(pages: string[], n: number | null): CorpusFile[] {
  const count = n === null ? pages.length : Math.min(n, pages.length);
  const picked: CorpusFile[] = [];
  for (let i = 0; i < count; i++) {
    const file = pages[Math.floor((i * pages.length) / count)] as string;
    picked.push({ fileName: path.basename(file), source: { path: file } });
  }
  return picked;
}

const WORDS = (
  'durable workflow activity retry heartbeat checkpoint chunk vector index token sparse dense ' +
  'postgres query planner vacuum replica snapshot transaction commit rollback lock table column ' +
  'schema function trigger cursor buffer page tuple heap btree gin gist hash partition sequence ' +
  'worker queue signal history payload claim check batch upsert embedding model dimension search'
).split(' ');

/**
 * A markdown document of `sections` short sections. Each section is one parent with exactly one
 * child chunk (the body stays far below the chunk size), so the child count is exact.
 * Deterministic: a fixed linear congruential generator picks the words.
 */
export function bigMarkdown(sections: number): string {
  let seed = 42;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
  const parts = ['# Generated reference\n'];
  for (let s = 0; s < sections; s++) {
    const words: string[] = [];
    for (let w = 0; w < 60; w++) words.push(WORDS[next() % WORDS.length] as string);
    parts.push(`## Topic ${s}\n\nEntry ${s}: ${words.join(' ')}.\n`);
  }
  return parts.join('\n');
}

/** Child chunks the default chunker makes of a markdown text: checks bigMarkdown's promise. */
export function childChunks(markdown: string): number {
  return chunkMarkdown('count', markdown, DEFAULT_CHUNKER_OPTIONS).filter((d) => d.kind === 'child').length;
}
