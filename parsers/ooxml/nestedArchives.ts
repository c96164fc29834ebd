import { permanentError } from '../../contracts/sluiceError';
import { ZipArchive } from './zipArchive';

/** An embedded workbook inside a document inside a package is three levels; deeper is a bomb's shape. */
const MAX_NESTING = 3;
/** Embedded archives are inspected in memory; one bigger than this is refused rather than held. */
const MAX_NESTED_ARCHIVE_BYTES = 32 * 1024 * 1024;
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
/** XML parts are text, never archives: only the other entries are opened to look. */
const XML_PART = /\.(xml|rels|vml)$/i;

/**
 * The zip-bomb guard across nesting levels. Parsing reads only a package's own XML parts, but an
 * embedded archive (a workbook in a document, or 42.zip in word/embeddings) could multiply what
 * the file stands for level by level while each directory stays honest and small. So every
 * embedded ZIP's directory is read, recursively, and the sizes all levels declare count against
 * the one uncompressed budget; the inflating needed to look counts too (ZipArchive). An
 * archive nested deeper than MAX_NESTING is refused outright. Ends FILE_TOO_LARGE.
 */
export async function assertNestedArchivesFit(archive: ZipArchive, maxUncompressedBytes: number): Promise<void> {
  let declared = archive.declaredBytes;
  const visit = async (current: ZipArchive, depth: number): Promise<void> => {
    for (const name of current.names()) {
      if (XML_PART.test(name) || name.endsWith('/')) continue;
      const head = await current.readBytes(name, ZIP_MAGIC.length);
      if (!head?.equals(ZIP_MAGIC)) continue;
      if (depth >= MAX_NESTING) throw tooLarge(`nests archives deeper than ${MAX_NESTING} levels (${name})`);
      const bytes = await current.readBytes(name, MAX_NESTED_ARCHIVE_BYTES + 1);
      if (!bytes || bytes.length > MAX_NESTED_ARCHIVE_BYTES)
        throw tooLarge(`embeds an archive larger than ${MAX_NESTED_ARCHIVE_BYTES} bytes (${name})`);
      const nested = await ZipArchive.fromBuffer(bytes, maxUncompressedBytes);
      try {
        declared += nested.declaredBytes;
        if (declared > maxUncompressedBytes)
          throw tooLarge(`declares ${declared}+ bytes across its embedded archives (${name})`);
        await visit(nested, depth + 1);
      } finally {
        nested.close();
      }
    }
  };
  await visit(archive, 1);
}

function tooLarge(detail: string) {
  return permanentError('FILE_TOO_LARGE', `the package ${detail}: more than the uncompressed limit (zip-bomb guard)`);
}
