import { permanentError } from '../../contracts/sluiceError';

export interface Dimensions {
  width: number;
  height: number;
}

/**
 * An image's size as its header declares it, read without decoding a pixel: decoders allocate
 * the whole bitmap first (a 194 KB PNG declaring 40000 × 40000 grew its process by 1.67 GB), so
 * the pixel cap is applied to this. Each reader walks the header once, in bounded steps.
 */
export function declaredDimensions(bytes: Buffer, format: 'png' | 'jpeg' | 'webp'): Dimensions {
  const found =
    format === 'png' ? pngDimensions(bytes) : format === 'jpeg' ? jpegDimensions(bytes) : webpDimensions(bytes);
  if (!found) throw permanentError('CORRUPT_DOCUMENT', `the ${format} image cannot be decoded: its header has no size`);
  return found;
}

/** IHDR is the first chunk: width and height at bytes 16 and 20 (PNG §11.2.2). */
function pngDimensions(bytes: Buffer): Dimensions | null {
  if (bytes.length < 24 || bytes.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Start-of-frame markers carry the size; DHT (C4), JPG (C8) and DAC (CC) share their range but do not. */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/**
 * The segments before the first scan, each skipped by its length, up to the scan itself: the size
 * is the one start-of-frame's, and a file with a second one before the scan is refused, since the
 * header check and the decoder could each believe another (16 × 16 here, 30000 × 30000 in
 * libjpeg). A file whose segments do not reach a scan is damaged.
 */
function jpegDimensions(bytes: Buffer): Dimensions | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let found: Dimensions | null = null;
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at += 1; // a fill byte before the marker
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      at += 2; // markers without a length
      continue;
    }
    if (marker === 0xda) return found; // the scan: every header segment has been seen
    if (marker === 0xd9) return null; // the image ended before any scan
    const length = bytes.readUInt16BE(at + 2);
    if (length < 2 || at + 2 + length > bytes.length) return null;
    if (isStartOfFrame(marker)) {
      if (found) throw permanentError('CORRUPT_DOCUMENT', 'the jpeg image has two frame headers (SOF) before its scan');
      if (length < 7) return null;
      found = { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    }
    at += 2 + length;
  }
  return null;
}

/** RIFF/WEBP, then the first chunk: lossy (VP8), lossless (VP8L) or extended (VP8X) headers. */
function webpDimensions(bytes: Buffer): Dimensions | null {
  if (bytes.length < 30 || bytes.toString('latin1', 0, 4) !== 'RIFF' || bytes.toString('latin1', 8, 12) !== 'WEBP')
    return null;
  const chunk = bytes.toString('latin1', 12, 16);
  if (chunk === 'VP8 ') {
    if (bytes[23] !== 0x9d || bytes[24] !== 0x01 || bytes[25] !== 0x2a) return null;
    return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
  }
  if (chunk === 'VP8L') {
    if (bytes[20] !== 0x2f) return null;
    const bits = bytes.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') return { width: bytes.readUIntLE(24, 3) + 1, height: bytes.readUIntLE(27, 3) + 1 };
  return null;
}
