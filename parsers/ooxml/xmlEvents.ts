import { Parser } from 'htmlparser2';
import type { ZipArchive } from './zipArchive';

export interface XmlHandler {
  open?(name: string, attributes: Record<string, string>): void;
  close?(name: string): void;
  text?(text: string): void;
}

/**
 * Streams one archive part through a SAX parser: the part is never held whole, so a 100 MB sheet
 * costs the rows being built, not a DOM. Names keep their prefixes (w:p, a:t), which OOXML fixes
 * per part; entities are decoded. Returns false when the part does not exist.
 */
export async function parseXmlPart(archive: ZipArchive, name: string, handler: XmlHandler): Promise<boolean> {
  const parser = new Parser(
    {
      onopentag: (tag, attributes) => handler.open?.(tag, attributes),
      onclosetag: (tag) => handler.close?.(tag),
      ontext: (text) => handler.text?.(text),
    },
    { xmlMode: true, decodeEntities: true },
  );
  const found = await archive.readText(name, (chunk) => parser.write(chunk));
  parser.end();
  return found;
}
