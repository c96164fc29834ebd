/**
 * Magic numbers of binary formats we recognise by content. Extensions lie (a PDF uploaded as
 * `notes.txt` is still a PDF), so the first bytes decide. When a parser for one of these kinds
 * lands (PDF, DOCX; PNG, JPEG, TIFF and WebP through OCR), its entry keeps its place here and
 * detectFileType maps the kind to a type.
 */
export type BinaryKind =
  | 'pdf'
  | 'zip'
  | 'ole2'
  | 'png'
  | 'jpeg'
  | 'gif'
  | 'webp'
  | 'riff'
  | 'tiff'
  | 'bmp'
  | 'gzip'
  | 'bzip2'
  | 'xz'
  | 'zstd'
  | '7z'
  | 'rar'
  | 'elf'
  | 'mach-o'
  | 'wasm'
  | 'sqlite'
  | 'mp4'
  | 'mp3'
  | 'rtf'
  | 'utf-32';

interface Signature {
  kind: BinaryKind;
  /** Human-readable name used in failure reasons. */
  label: string;
  offset: number;
  bytes: readonly number[];
  /** Extra check for magics short or text-like enough to occur at the start of real text. */
  verify?: (head: Buffer) => boolean;
}

const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

const SIGNATURES: readonly Signature[] = [
  { kind: 'pdf', label: 'PDF document', offset: 0, bytes: ascii('%PDF-') },
  // OOXML (docx/xlsx/pptx), ODF and EPUB are all ZIP containers.
  { kind: 'zip', label: 'ZIP archive (e.g. DOCX/XLSX/PPTX)', offset: 0, bytes: [0x50, 0x4b, 0x03, 0x04] },
  { kind: 'zip', label: 'ZIP archive (empty)', offset: 0, bytes: [0x50, 0x4b, 0x05, 0x06] },
  { kind: 'zip', label: 'ZIP archive (spanned)', offset: 0, bytes: [0x50, 0x4b, 0x07, 0x08] },
  {
    kind: 'ole2',
    label: 'legacy Office document (DOC/XLS/PPT)',
    offset: 0,
    bytes: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1],
  },
  { kind: 'png', label: 'PNG image', offset: 0, bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { kind: 'jpeg', label: 'JPEG image', offset: 0, bytes: [0xff, 0xd8, 0xff] },
  { kind: 'gif', label: 'GIF image', offset: 0, bytes: ascii('GIF87a') },
  { kind: 'gif', label: 'GIF image', offset: 0, bytes: ascii('GIF89a') },
  { kind: 'webp', label: 'WebP image', offset: 0, bytes: ascii('RIFF'), verify: (h) => hasAsciiAt(h, 8, 'WEBP') },
  {
    kind: 'riff',
    label: 'RIFF media (WAV/AVI)',
    offset: 0,
    bytes: ascii('RIFF'),
    verify: (h) => hasAsciiAt(h, 8, 'WAVE') || hasAsciiAt(h, 8, 'AVI '),
  },
  { kind: 'tiff', label: 'TIFF image', offset: 0, bytes: [0x49, 0x49, 0x2a, 0x00] },
  { kind: 'tiff', label: 'TIFF image', offset: 0, bytes: [0x4d, 0x4d, 0x00, 0x2a] },
  // BMP's header has four reserved zero bytes after the file size.
  {
    kind: 'bmp',
    label: 'BMP image',
    offset: 0,
    bytes: ascii('BM'),
    verify: (h) => h.length >= 10 && h.readUInt32LE(6) === 0,
  },
  { kind: 'gzip', label: 'gzip archive', offset: 0, bytes: [0x1f, 0x8b] },
  // "BZh" + block size digit, then the block magic (BCD of pi).
  {
    kind: 'bzip2',
    label: 'bzip2 archive',
    offset: 0,
    bytes: ascii('BZh'),
    verify: (h) => hasBytesAt(h, 4, [0x31, 0x41, 0x59, 0x26, 0x53, 0x59]),
  },
  { kind: 'xz', label: 'xz archive', offset: 0, bytes: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00] },
  { kind: 'zstd', label: 'zstd archive', offset: 0, bytes: [0x28, 0xb5, 0x2f, 0xfd] },
  { kind: '7z', label: '7-Zip archive', offset: 0, bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c] },
  { kind: 'rar', label: 'RAR archive', offset: 0, bytes: ascii('Rar!\x1a\x07') },
  { kind: 'elf', label: 'ELF executable', offset: 0, bytes: [0x7f, 0x45, 0x4c, 0x46] },
  { kind: 'mach-o', label: 'Mach-O executable', offset: 0, bytes: [0xcf, 0xfa, 0xed, 0xfe] },
  { kind: 'mach-o', label: 'Mach-O executable', offset: 0, bytes: [0xfe, 0xed, 0xfa, 0xcf] },
  { kind: 'wasm', label: 'WebAssembly module', offset: 0, bytes: [0x00, 0x61, 0x73, 0x6d] },
  { kind: 'sqlite', label: 'SQLite database', offset: 0, bytes: ascii('SQLite format 3\x00') },
  { kind: 'mp4', label: 'MP4/QuickTime media', offset: 4, bytes: ascii('ftyp') },
  // ID3v2 tag: "ID3" then a major version byte 2..4.
  {
    kind: 'mp3',
    label: 'MP3 audio',
    offset: 0,
    bytes: ascii('ID3'),
    verify: (h) => h[3] !== undefined && h[3] >= 2 && h[3] <= 4,
  },
  // Text, but a markup we cannot turn into clean markdown yet.
  { kind: 'rtf', label: 'RTF document', offset: 0, bytes: ascii('{\\rtf') },
  // Must be checked before the UTF-16 LE BOM (FF FE), which is its prefix.
  { kind: 'utf-32', label: 'UTF-32 text', offset: 0, bytes: [0xff, 0xfe, 0x00, 0x00] },
  { kind: 'utf-32', label: 'UTF-32 text', offset: 0, bytes: [0x00, 0x00, 0xfe, 0xff] },
];

function hasBytesAt(head: Buffer, offset: number, bytes: readonly number[]): boolean {
  if (head.length < offset + bytes.length) return false;
  return bytes.every((byte, i) => head[offset + i] === byte);
}

function hasAsciiAt(head: Buffer, offset: number, text: string): boolean {
  return hasBytesAt(head, offset, ascii(text));
}

export interface DetectedBinary {
  kind: BinaryKind;
  label: string;
}

export function detectBinaryKind(head: Buffer): DetectedBinary | null {
  const match = SIGNATURES.find(
    (signature) => hasBytesAt(head, signature.offset, signature.bytes) && (signature.verify?.(head) ?? true),
  );
  return match ? { kind: match.kind, label: match.label } : null;
}
