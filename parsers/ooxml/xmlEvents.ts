import { Parser } from 'htmlparser2';
import { permanentError } from '../../contracts/sluiceError';
import type { ZipArchive } from './zipArchive';

export interface XmlHandler {
  open?(name: string, attributes: Record<string, string>): void;
  close?(name: string): void;
  text?(text: string): void;
}

/**
 * Office writes parts a few dozen elements deep (each level of a nested Word table adds about
 * five). The SAX parser's open-element stack costs its depth on every tag (it shifts the stack and
 * searches it for each end tag), so unbounded depth would make a part quadratic.
 */
export const MAX_XML_DEPTH = 256;

/**
 * Streams one archive part through a SAX parser: the part is never held whole, so a 100 MB sheet
 * costs the rows being built, not a DOM. Names keep their prefixes (w:p, a:t), which OOXML fixes
 * per part; entities are decoded. Returns false when the part does not exist.
 */
export async function parseXmlPart(archive: ZipArchive, name: string, handler: XmlHandler): Promise<boolean> {
  let depth = 0;
  const parser = new Parser(
    {
      onopentag: (tag, attributes) => {
        if (++depth > MAX_XML_DEPTH)
          throw permanentError('CORRUPT_DOCUMENT', `part ${name} is nested deeper than ${MAX_XML_DEPTH} elements`);
        handler.open?.(tag, attributes);
      },
      onclosetag: (tag) => {
        depth--;
        handler.close?.(tag);
      },
      ontext: (text) => handler.text?.(text),
    },
    { xmlMode: true, decodeEntities: true },
  );
  const found = await archive.readText(name, (chunk) => parser.write(chunk));
  parser.end();
  return found;
}
