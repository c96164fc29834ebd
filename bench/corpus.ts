import fs from 'node:fs';
import path from 'node:path';
import { chunkMarkdown, DEFAULT_CHUNKER_OPTIONS } from '../chunker/chunkMarkdown';
import { debianDocPath } from '../testkit/fixtures/debianDocs';

export interface CorpusFile {
  fileName: string;
  /** Where the bytes are, or the bytes themselves for generated documents. */
  source: { path: string } | { text: string };
}

/**
 * Debian's postgresql-doc-15: ~1,170 real HTML pages of very uneven size (2 KB to 440 KB), a
 * corpus anyone can fetch again with apt (cached under .sluice/debian-docs, shared with the tests).
 */
export function ensureCorpus(): string[] {
  const dir = debianDocPath('postgresql-doc-15', 'usr/share/doc/postgresql-doc-15/html');
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.html'))
    .sort()
    .map((f) => path.join(dir, f));
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

/**
 * `n` small markdown notes (a heading and a paragraph, about 500 bytes), each different, so
 * content dedupe within a dataset keeps every one: the 10,000-document burst, beyond the
 * manual's page count. Deterministic like bigMarkdown.
 */
export function smallNotes(n: number): CorpusFile[] {
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
  return Array.from({ length: n }, (_, i) => {
    const words = Array.from({ length: 60 }, () => WORDS[next() % WORDS.length] as string);
    return { fileName: `note-${i}.md`, source: { text: `# Note ${i}\n\nNote ${i}: ${words.join(' ')}.\n` } };
  });
}

/** Child chunks the default chunker makes of a markdown text: checks bigMarkdown's promise. */
export function childChunks(markdown: string): number {
  return chunkMarkdown('count', markdown, DEFAULT_CHUNKER_OPTIONS).filter((d) => d.kind === 'child').length;
}
