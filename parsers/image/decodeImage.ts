import { createCanvas, loadImage } from '@napi-rs/canvas';
import * as UTIF from 'utif2';
import { permanentError } from '../../contracts/sluiceError';
import { flattenOnWhite, type RgbaImage } from '../../ocr/rgbaImage';
import { MAX_IMAGE_PIXELS } from '../parseLimits';
import { declaredDimensions } from './imageDimensions';
import { checkTiffStructure } from './tiffStructure';

/** Frames of a multi-page TIFF beyond this are not decoded: the OCR page cap applies as well. */
const MAX_TIFF_FRAMES = 1000;

export type ImageFormat = 'png' | 'jpeg' | 'webp' | 'tiff';

/**
 * The frames of an image upload as RGBA pixels on white, one at a time (a multi-page TIFF is a
 * scanned document): PNG, JPEG and WebP through Skia (@napi-rs/canvas), TIFF through UTIF.
 * The size is checked from the header before a frame's pixels are decoded (imageDimensions.ts),
 * and again from what the decoder reports.
 */
export async function* imageFrames(bytes: Buffer, format: ImageFormat): AsyncGenerator<RgbaImage> {
  if (format === 'tiff') {
    yield* tiffFrames(bytes);
    return;
  }
  if (format === 'png') checkPngHeader(bytes);
  // Refused from the header, before the decoder allocates the bitmap it declares.
  const declared = declaredDimensions(bytes, format);
  checkSize(declared.width, declared.height);
  const image = await decoded(format, () => loadImage(bytes));
  checkSize(image.width, image.height);
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, image.width, image.height);
  context.drawImage(image, 0, 0);
  yield { width: image.width, height: image.height, data: context.getImageData(0, 0, image.width, image.height).data };
}

function* tiffFrames(bytes: Buffer): Generator<RgbaImage> {
  // The directories are walked and bounded first (tiffStructure.ts); maker notes are not read.
  checkTiffStructure(bytes);
  // Sub-IFDs (thumbnails, EXIF) carry no image size tags and are skipped.
  const frames = decodedSync('tiff', () => decodeTiff(bytes, { parseMN: false, debug: false })).filter(
    (ifd) => ifd['t256'] !== undefined && ifd['t257'] !== undefined,
  );
  if (frames.length === 0) throw permanentError('CORRUPT_DOCUMENT', 'the TIFF file holds no image');
  for (const ifd of frames.slice(0, MAX_TIFF_FRAMES)) {
    checkSize(firstNumber(ifd['t256']), firstNumber(ifd['t257']));
    const data = decodedSync('tiff', () => {
      UTIF.decodeImage(bytes, ifd);
      return UTIF.toRGBA8(ifd);
    });
    yield flattenOnWhite({ width: ifd.width, height: ifd.height, data });
  }
}

/** UTIF.decode with its options, which its type declarations leave out. */
const decodeTiff = UTIF.decode as (bytes: Buffer, options: { parseMN: boolean; debug: boolean }) => UTIF.IFD[];

function firstNumber(tag: unknown): number {
  const value = Array.isArray(tag) ? Number(tag[0]) : Number(tag);
  return Number.isFinite(value) ? value : 0;
}

function checkSize(width: number, height: number): void {
  if (width <= 0 || height <= 0) throw permanentError('CORRUPT_DOCUMENT', 'the image has no pixels');
  if (width * height > MAX_IMAGE_PIXELS) {
    throw permanentError(
      'FILE_TOO_LARGE',
      `the image is ${width} × ${height} pixels, more than the ${MAX_IMAGE_PIXELS} an image may have`,
    );
  }
}

/**
 * Skia's decoder crashes its process (measured: SIGSEGV) on a PNG signature followed by no valid
 * IHDR chunk; the parse process would contain that as PARSE_ENGINE_FAILED, but the damage is the
 * file's, and is cheap to see: the first chunk must be a 13-byte IHDR with a non-zero size.
 */
function checkPngHeader(bytes: Buffer): void {
  const valid =
    bytes.length >= 33 &&
    bytes.readUInt32BE(8) === 13 &&
    bytes.toString('latin1', 12, 16) === 'IHDR' &&
    bytes.readUInt32BE(16) > 0 &&
    bytes.readUInt32BE(20) > 0;
  if (!valid) throw permanentError('CORRUPT_DOCUMENT', 'the png image cannot be decoded: its header (IHDR) is damaged');
}

/** Bytes that start as an image but do not decode are a damaged file, not an engine failure. */
async function decoded<T>(format: ImageFormat, decode: () => Promise<T>): Promise<T> {
  try {
    return await decode();
  } catch (error) {
    throw permanentError('CORRUPT_DOCUMENT', `the ${format} image cannot be decoded: ${messageOf(error)}`, error);
  }
}

function decodedSync<T>(format: ImageFormat, decode: () => T): T {
  try {
    return decode();
  } catch (error) {
    throw permanentError('CORRUPT_DOCUMENT', `the ${format} image cannot be decoded: ${messageOf(error)}`, error);
  }
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 200);
}
