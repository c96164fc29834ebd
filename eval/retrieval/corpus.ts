import path from 'node:path';
import type { ChunkerOptions } from '../../chunker/chunkMarkdown';
import type { ChunkDraft } from '../../contracts/chunk';
import type { CpuPool } from '../../cpuPool/pool';
import type { SourceFileType } from '../../parsers/detectFileType';
import { debianDocPath } from '../../test/support/debianDocs';

export type Language = 'en' | 'zh';

export interface CorpusDoc {
  /** Short stable name; questions point at it, and it seeds the document id. */
  id: string;
  language: Language;
  pkg: string;
  relPath: string;
  type: SourceFileType;
  /** Part of the reduced (CI) corpus. */
  ci: boolean;
}

const DEBREF = 'usr/share/debian-reference';

/**
 * Real manuals nobody here wrote, from Debian's documentation packages. The English set mixes a
 * PDF (R-intro) with HTML chapters of the Debian reference and PostgreSQL pages, so answers must
 * be found among unrelated documents; the Chinese set is the Debian reference in Simplified Chinese.
 */
export const CORPUS: CorpusDoc[] = [
  {
    id: 'r-intro',
    language: 'en',
    pkg: 'r-doc-pdf',
    relPath: 'usr/share/R/doc/manual/R-intro.pdf',
    type: 'pdf',
    ci: true,
  },
  {
    id: 'debref-en-ch04',
    language: 'en',
    pkg: 'debian-reference-en',
    relPath: `${DEBREF}/ch04.en.html`,
    type: 'html',
    ci: true,
  },
  {
    id: 'debref-en-ch03',
    language: 'en',
    pkg: 'debian-reference-en',
    relPath: `${DEBREF}/ch03.en.html`,
    type: 'html',
    ci: false,
  },
  {
    id: 'debref-en-ch05',
    language: 'en',
    pkg: 'debian-reference-en',
    relPath: `${DEBREF}/ch05.en.html`,
    type: 'html',
    ci: false,
  },
  {
    id: 'debref-en-ch10',
    language: 'en',
    pkg: 'debian-reference-en',
    relPath: `${DEBREF}/ch10.en.html`,
    type: 'html',
    ci: false,
  },
  {
    id: 'pg-backup-dump',
    language: 'en',
    pkg: 'postgresql-doc-15',
    relPath: 'usr/share/doc/postgresql-doc-15/html/backup-dump.html',
    type: 'html',
    ci: false,
  },
  {
    id: 'pg-routine-vacuuming',
    language: 'en',
    pkg: 'postgresql-doc-15',
    relPath: 'usr/share/doc/postgresql-doc-15/html/routine-vacuuming.html',
    type: 'html',
    ci: false,
  },
  {
    id: 'pg-indexes-partial',
    language: 'en',
    pkg: 'postgresql-doc-15',
    relPath: 'usr/share/doc/postgresql-doc-15/html/indexes-partial.html',
    type: 'html',
    ci: false,
  },
  {
    id: 'pg-auth-pg-hba',
    language: 'en',
    pkg: 'postgresql-doc-15',
    relPath: 'usr/share/doc/postgresql-doc-15/html/auth-pg-hba-conf.html',
    type: 'html',
    ci: false,
  },
  {
    id: 'pg-transaction-iso',
    language: 'en',
    pkg: 'postgresql-doc-15',
    relPath: 'usr/share/doc/postgresql-doc-15/html/transaction-iso.html',
    type: 'html',
    ci: false,
  },
  {
    id: 'debref-zh-ch03',
    language: 'zh',
    pkg: 'debian-reference-zh-cn',
    relPath: `${DEBREF}/ch03.zh-cn.html`,
    type: 'html',
    ci: false,
  },
  {
    id: 'debref-zh-ch04',
    language: 'zh',
    pkg: 'debian-reference-zh-cn',
    relPath: `${DEBREF}/ch04.zh-cn.html`,
    type: 'html',
    ci: false,
  },
  {
    id: 'debref-zh-ch05',
    language: 'zh',
    pkg: 'debian-reference-zh-cn',
    relPath: `${DEBREF}/ch05.zh-cn.html`,
    type: 'html',
    ci: false,
  },
  {
    id: 'debref-zh-ch10',
    language: 'zh',
    pkg: 'debian-reference-zh-cn',
    relPath: `${DEBREF}/ch10.zh-cn.html`,
    type: 'html',
    ci: false,
  },
];

export interface ParsedDoc {
  doc: CorpusDoc;
  documentId: string;
  markdown: string;
  /** Child chunks only: what the pipeline embeds, indexes and retrieves. */
  children: ChunkDraft[];
}

/** CLEANING and CHUNKING as the worker runs them: the same CPU pool tasks, the same options. */
export async function parseDoc(cpu: CpuPool, doc: CorpusDoc, chunking: ChunkerOptions): Promise<ParsedDoc> {
  const file = debianDocPath(doc.pkg, doc.relPath);
  const markdown = await cpu.parse(file, doc.type);
  const documentId = `eval-${doc.id}`;
  const children = (await cpu.chunk(documentId, markdown, chunking)).filter((c) => c.kind === 'child');
  return { doc, documentId, markdown, children };
}

export function fileNameOf(doc: CorpusDoc): string {
  return path.basename(doc.relPath);
}
