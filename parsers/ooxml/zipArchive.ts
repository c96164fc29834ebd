import { StringDecoder } from 'node:string_decoder';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { permanentError, SluiceError } from '../../contracts/sluiceError';

const ZIP_OPTIONS = { lazyEntries: true, autoClose: false, validateEntrySizes: true };

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
    /** What the directory says every entry inflates to, together. */
    readonly declaredBytes: number,
  ) {}

  static async open(filePath: string, maxUncompressedBytes: number): Promise<ZipArchive> {
    const zip = await new Promise<ZipFile>((resolve, reject) =>
      yauzl.open(filePath, ZIP_OPTIONS, (error, file) => (error ? reject(corrupt(error)) : resolve(file))),
    );
    return ZipArchive.load(zip, maxUncompressedBytes);
  }

  /** An archive held in memory: one embedded in another (nestedArchives.ts). */
  static async fromBuffer(buffer: Buffer, maxUncompressedBytes: number): Promise<ZipArchive> {
    const zip = await new Promise<ZipFile>((resolve, reject) =>
      yauzl.fromBuffer(buffer, ZIP_OPTIONS, (error, file) => (error ? reject(corrupt(error)) : resolve(file))),
    );
    return ZipArchive.load(zip, maxUncompressedBytes);
  }

  private static async load(zip: ZipFile, maxUncompressedBytes: number): Promise<ZipArchive> {
    try {
      const entries = await listEntries(zip);
      const declared = [...entries.values()].reduce((sum, entry) => sum + entry.uncompressedSize, 0);
      if (declared > maxUncompressedBytes) throw tooLarge(maxUncompressedBytes, `declares ${declared} bytes`);
      return new ZipArchive(zip, entries, maxUncompressedBytes, declared);
    } catch (error) {
      zip.close();
      throw error;
    }
  }

  /** Parts' names in directory order. */
  names(): string[] {
    return [...this.entries.keys()];
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** Streams an entry as UTF-8 text, chunk by chunk; false when the entry does not exist. */
  async readText(name: string, onText: (text: string) => void): Promise<boolean> {
    const decoder = new StringDecoder('utf8');
    const found = await this.inflate(name, (chunk) => {
      onText(decoder.write(chunk));
      return true;
    });
    if (!found) return false;
    onText(decoder.end());
    return true;
  }

  /**
   * An entry's first `count` inflated bytes (fewer if it is shorter), or all of it with no
   * count; null when absent. Inflation stops once they are there.
   */
  async readBytes(name: string, count = Number.POSITIVE_INFINITY): Promise<Buffer | null> {
    const chunks: Buffer[] = [];
    let length = 0;
    const found = await this.inflate(name, (chunk) => {
      chunks.push(chunk);
      length += chunk.length;
      return length < count;
    });
    if (!found) return null;
    const bytes = Buffer.concat(chunks);
    return bytes.length > count ? bytes.subarray(0, count) : bytes;
  }

  /** Inflates an entry chunk by chunk, every byte counted, until `onChunk` says stop; false when absent. */
  private async inflate(name: string, onChunk: (chunk: Buffer) => boolean): Promise<boolean> {
    const entry = this.entries.get(name);
    if (!entry) return false;
    if (entry.isEncrypted()) throw permanentError('ENCRYPTED_DOCUMENT', `part ${name} is encrypted`);
    const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) =>
      this.zip.openReadStream(entry, (error, readable) => (error ? reject(corrupt(error)) : resolve(readable))),
    );
    const destroy = () => (stream as NodeJS.ReadableStream & { destroy(): void }).destroy();
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        this.inflated += chunk.length;
        if (this.inflated > this.maxUncompressedBytes) throw tooLarge(this.maxUncompressedBytes, 'inflates beyond it');
        if (!onChunk(chunk)) {
          destroy();
          break;
        }
      }
    } catch (error) {
      destroy();
      throw corrupt(error);
    }
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
