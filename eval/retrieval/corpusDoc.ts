import type { SourceFileType } from '../../parsers/detectFileType';
import type { DocSource } from './sources/docSource';
import type { Family } from './split';

export type Language = 'en' | 'zh';

export interface CorpusDoc {
  /** Short stable name; questions point at it, and it seeds the document id. */
  id: string;
  /** The document set it belongs to: results are reported per set. */
  set: string;
  /** The software project it documents: what the tuning / held-out split is drawn by (split.ts). */
  family: Family;
  language: Language;
  type: SourceFileType;
  source: DocSource;
  /** Part of the reduced (CI) corpus. */
  ci: boolean;
}

export const file = (pkg: string, relPath: string): DocSource => ({ kind: 'file', pkg, relPath });

/** An HTML page shipped in a package, as it is. */
export const html = (
  doc: Omit<CorpusDoc, 'type' | 'source' | 'ci'> & { pkg: string; relPath: string; ci?: boolean },
): CorpusDoc => ({
  id: doc.id,
  set: doc.set,
  family: doc.family,
  language: doc.language,
  type: 'html',
  source: file(doc.pkg, doc.relPath),
  ci: doc.ci ?? false,
});
