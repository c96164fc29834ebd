import path from 'node:path/posix';
import { parseXmlPart } from './xmlEvents';
import type { ZipArchive } from './zipArchive';

export interface Relationship {
  type: string;
  /** Resolved part name inside the archive (no leading slash). */
  part: string;
  external: boolean;
}

/**
 * The relationships of a part (OPC: `dir/_rels/name.rels`), by id. Targets are relative to the
 * part's folder unless they start with a slash.
 */
export async function readRelationships(archive: ZipArchive, partName: string): Promise<Map<string, Relationship>> {
  const dir = path.dirname(partName);
  const relsName = path.join(dir === '.' ? '' : dir, '_rels', `${path.basename(partName)}.rels`);
  const relationships = new Map<string, Relationship>();
  await parseXmlPart(archive, relsName, {
    open(name, attributes) {
      if (name !== 'Relationship' || !attributes.Id || !attributes.Target) return;
      const target = attributes.Target;
      const part = target.startsWith('/') ? target.slice(1) : path.normalize(path.join(dir === '.' ? '' : dir, target));
      relationships.set(attributes.Id, {
        type: attributes.Type ?? '',
        part,
        external: attributes.TargetMode === 'External',
      });
    },
  });
  return relationships;
}

/** Relationship types are long URIs; their last segment (officeDocument, slide, notesSlide) is what differs. */
export function relationshipKind(type: string): string {
  return type.slice(type.lastIndexOf('/') + 1);
}
