import { StringDecoder } from 'node:string_decoder';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { permanentError, SluiceError } from '../../contracts/sluiceError';

/** OOXML packages have tens to a few thousand parts; more is a central-directory bomb. */
const MAX_ENTRIES = 20_000;

/**
 * Random access to a ZIP on disk (yauzl reads the central directory, then each entry on demand),
 * with a zip-bomb guard: every byte inflated, in any entry, counts against one budget. Declared
 * sizes are checked up front (cheap), and actual bytes while inflating, because a crafted archive
 * can declare small sizes and still inflate without end.
 */
export class ZipArchive {
  private inflated = 0;

  private constructor(
    private readonly zip: ZipFile,
    private readonly entries: ReadonlyMap<string, Entry>,
    private readonly maxUncompressedBytes: number,
  ) {}

  static async open(filePath: string, maxUncompressedBytes: number): Promise<ZipArchive> {
    const zip = await new Promise<ZipFile>((resolve, reject) =>
      yauzl.open(filePath, { lazyEntries: true, autoClose: false, validateEntrySizes: true }, (error, file) =>
        error ? reject(corrupt(error)) : resolve(file),
      ),
    );
    try {
      const entries = await listEntries(zip);
      const declared = [...entries.values()].reduce((sum, entry) => sum + entry.uncompressedSize, 0);
      if (declared > maxUncompressedBytes) throw tooLarge(maxUncompressedBytes, `declares ${declared} bytes`);
      return new ZipArchive(zip, entries, maxUncompressedBytes);
    } catch (error) {
      zip.close();
      throw error;
    }
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** Streams an entry as UTF-8 text, chunk by chunk; false when the entry does not exist. */
  async readText(name: string, onText: (text: string) => void): Promise<boolean> {
    const entry = this.entries.get(name);
    if (!entry) return false;
    if (entry.isEncrypted()) throw permanentError('ENCRYPTED_DOCUMENT', `part ${name} is encrypted`);
    const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) =>
      this.zip.openReadStream(entry, (error, readable) => (error ? reject(corrupt(error)) : resolve(readable))),
    );
    const decoder = new StringDecoder('utf8');
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        this.inflated += chunk.length;
        if (this.inflated > this.maxUncompressedBytes) throw tooLarge(this.maxUncompressedBytes, 'inflates beyond it');
        onText(decoder.write(chunk));
      }
    } catch (error) {
      (stream as NodeJS.ReadableStream & { destroy(): void }).destroy();
      throw corrupt(error);
    }
    onText(decoder.end());
    return true;
  }

  /** A whole small part (relationships, workbook, styles) as one string; null when absent. */
  async readWhole(name: string): Promise<string | null> {
    let text = '';
    return (await this.readText(name, (chunk) => (text += chunk))) ? text : null;
  }

  close(): void {
    this.zip.close();
  }
}

function listEntries(zip: ZipFile): Promise<Map<string, Entry>> {
  return new Promise((resolve, reject) => {
    const entries = new Map<string, Entry>();
    zip.on('entry', (entry: Entry) => {
      entries.set(entry.fileName, entry);
      if (entries.size > MAX_ENTRIES)
        reject(permanentError('FILE_TOO_LARGE', `the archive has more than ${MAX_ENTRIES} entries`));
      else zip.readEntry();
    });
    zip.once('end', () => resolve(entries));
    zip.once('error', (error: Error) => reject(corrupt(error)));
    zip.readEntry();
  });
}

function tooLarge(limit: number, detail: string): SluiceError {
  return permanentError(
    'FILE_TOO_LARGE',
    `the archive ${detail}: more than the ${limit}-byte uncompressed limit (zip-bomb guard)`,
  );
}

function corrupt(error: unknown): SluiceError {
  if (error instanceof SluiceError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return permanentError('CORRUPT_DOCUMENT', `the ZIP container cannot be read: ${message}`, error);
}
