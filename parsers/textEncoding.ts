import { analyse } from 'chardet';
import { permanentError } from '../contracts/sluiceError';

/** A WHATWG encoding label that Node's TextDecoder (built with full ICU) accepts. */
export type TextEncoding = string;

/**
 * chardet names we can decode, mapped to TextDecoder labels. ISO-2022-CN/KR are left out: the
 * WHATWG decoder maps them to "replacement", which would turn a whole document into U+FFFD.
 */
const DECODABLE: Record<string, TextEncoding> = {
  GB18030: 'gb18030',
  Big5: 'big5',
  Shift_JIS: 'shift_jis',
  'EUC-JP': 'euc-jp',
  'EUC-KR': 'euc-kr',
  'ISO-2022-JP': 'iso-2022-jp',
  'KOI8-R': 'koi8-r',
};

/** chardet's confidence is 0–100; below this its guess is noise (it always returns something). */
const MIN_CONFIDENCE = 10;

/** Share of plausible characters a BOM-less UTF-16 reading needs before we believe it. */
const UTF16_PLAUSIBLE_SHARE = 0.9;

/**
 * The encoding of a text file from its first bytes: a byte-order mark wins; then valid UTF-8
 * (ASCII included); then UTF-16 without a BOM (Windows tools write it); then chardet's statistical
 * guess for legacy encodings such as GB18030, Big5 or Shift_JIS. Null when nothing fits.
 */
export function detectEncoding(sample: Uint8Array): TextEncoding | null {
  const bom = encodingFromBom(sample);
  if (bom) return bom;
  // NUL bytes are valid UTF-8 but never occur in UTF-8 text; they do in UTF-16 of ASCII.
  const utf16 = bomlessUtf16(sample);
  if (utf16 && sample.includes(0)) return utf16;
  if (isValid('utf-8', sample)) return 'utf-8';
  if (utf16) return utf16;
  for (const match of analyse(sample)) {
    if (match.confidence < MIN_CONFIDENCE) break;
    const label = DECODABLE[match.name] ?? legacyLatin(match.name);
    if (label) return label;
  }
  return null;
}

export function encodingFromBom(bytes: Uint8Array): TextEncoding | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return null;
}

/** The ISO-8859-x and windows-125x families chardet reports are all WHATWG labels as written. */
function legacyLatin(name: string): TextEncoding | null {
  return /^(ISO-8859-\d+|windows-125\d)$/.test(name) ? name.toLowerCase() : null;
}

/** `stream: true` tolerates a multi-byte character cut off at the end of the sample. */
function isValid(encoding: TextEncoding, sample: Uint8Array): boolean {
  try {
    new TextDecoder(encoding, { fatal: true }).decode(sample, { stream: true });
    return true;
  } catch {
    return false;
  }
}

function bomlessUtf16(sample: Uint8Array): TextEncoding | null {
  if (sample.length < 16) return null;
  for (const encoding of ['utf-16le', 'utf-16be']) {
    if (!isValid(encoding, sample)) continue;
    const text = new TextDecoder(encoding).decode(sample.subarray(0, sample.length & ~1));
    if (plausibleShare(text) >= UTF16_PLAUSIBLE_SHARE) return encoding;
  }
  return null;
}

/**
 * Random bytes read as UTF-16 land all over the BMP (Hangul, Yi, private use...); real text is
 * mostly ASCII, Latin-1 letters, Han and CJK punctuation.
 */
function plausibleShare(text: string): number {
  let plausible = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const ok =
      (c >= 0x20 && c < 0x7f) ||
      c === 0x09 ||
      c === 0x0a ||
      c === 0x0d ||
      (c >= 0xc0 && c <= 0x17f) ||
      (c >= 0x4e00 && c <= 0x9fff) ||
      (c >= 0x3000 && c <= 0x303f) ||
      (c >= 0xff00 && c <= 0xffef) ||
      (c >= 0x2010 && c <= 0x2027);
    if (ok) plausible++;
  }
  return text.length === 0 ? 0 : plausible / text.length;
}

/**
 * A few undecodable bytes deep inside a large text cost a U+FFFD each; more than this share means
 * the detection was wrong or the file is damaged, and indexing the garbage would help nobody.
 */
const MAX_REPLACEMENT_SHARE = 0.001;

/** Decodes a whole file (dropping its BOM) and refuses text that is mostly undecodable. */
export function decodeText(bytes: Uint8Array, encoding: TextEncoding): string {
  const text = new TextDecoder(encoding).decode(bytes);
  let replacements = 0;
  for (let i = text.indexOf('\ufffd'); i >= 0; i = text.indexOf('\ufffd', i + 1)) replacements++;
  if (replacements > 0 && replacements > text.length * MAX_REPLACEMENT_SHARE) {
    throw permanentError(
      'INVALID_TEXT_ENCODING',
      `${replacements} of ${text.length} characters are not valid ${encoding}`,
    );
  }
  return text;
}

/** Detects the encoding from the file's own head and decodes it. */
export function decodeDetected(bytes: Uint8Array, headBytes = 8192): string {
  const encoding = detectEncoding(bytes.subarray(0, headBytes));
  if (!encoding) throw permanentError('INVALID_TEXT_ENCODING', 'the text encoding could not be determined');
  return decodeText(bytes, encoding);
}
