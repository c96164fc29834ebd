import { createCanvas } from '@napi-rs/canvas';
import * as UTIF from 'utif2';
import { imageFrames } from '../../../parsers/image/decodeImage';
import { declaredDimensions } from '../../../parsers/image/imageDimensions';
import { checkTiffStructure } from '../../../parsers/image/tiffStructure';

// Images made to outrun the limits: each is refused from its structure, before a decoder loops
// or allocates what it declares.

async function frames(bytes: Buffer, format: 'jpeg' | 'tiff'): Promise<number> {
  let count = 0;
  for await (const frame of imageFrames(bytes, format)) if (frame.width > 0) count++;
  return count;
}

/** A little-endian TIFF: header, then one directory of `entries` at offset 8, then `next`. */
function tiff(entries: [tag: number, type: number, count: number, value: number][], next: number): Buffer {
  const bytes = Buffer.alloc(8 + 2 + entries.length * 12 + 4);
  bytes.write('II', 0, 'latin1');
  bytes.writeUInt16LE(42, 2);
  bytes.writeUInt32LE(8, 4);
  bytes.writeUInt16LE(entries.length, 8);
  entries.forEach(([tag, type, count, value], i) => {
    const at = 10 + i * 12;
    bytes.writeUInt16LE(tag, at);
    bytes.writeUInt16LE(type, at + 2);
    bytes.writeUInt32LE(count, at + 4);
    bytes.writeUInt32LE(value, at + 8);
  });
  bytes.writeUInt32LE(next, 10 + entries.length * 12);
  return bytes;
}

describe('TIFF', () => {
  it('refuses a directory that names itself as the next one (the decoder looped on it)', async () => {
    const loop = tiff(
      [
        [256, 3, 1, 16],
        [257, 3, 1, 16],
      ],
      8,
    );
    await expect(frames(loop, 'tiff')).rejects.toMatchObject({
      code: 'CORRUPT_DOCUMENT',
      message: expect.stringContaining('reached twice'),
    });
  });

  it('refuses a sub-directory that points back at its parent', () => {
    expect(() => checkTiffStructure(tiff([[330, 4, 1, 8]], 0))).toThrow(/reached twice/);
  });

  it('refuses a tag declaring more values than the file holds', async () => {
    const huge = tiff([[273, 4, 1_000_000_000, 20]], 0);
    await expect(frames(huge, 'tiff')).rejects.toMatchObject({
      code: 'CORRUPT_DOCUMENT',
      message: expect.stringContaining('past the end'),
    });
  });

  it('decodes a real TIFF as UTIF writes it', async () => {
    const rgba = new Uint8Array(40 * 30 * 4).fill(200);
    const written = Buffer.from(UTIF.encodeImage(rgba, 40, 30));
    expect(() => checkTiffStructure(written)).not.toThrow();
    expect(await frames(written, 'tiff')).toBe(1);
  });
});

describe('JPEG', () => {
  it('refuses a second frame header before the scan (the check and libjpeg could read different sizes)', async () => {
    const canvas = createCanvas(16, 16);
    canvas.getContext('2d').fillRect(0, 0, 8, 8);
    const jpeg = await canvas.encode('jpeg', 80);
    // A baseline SOF0 declaring 30000 × 30000, one component, inserted right after SOI.
    const sof = Buffer.from([0xff, 0xc0, 0x00, 0x0b, 0x08, 0x75, 0x30, 0x75, 0x30, 0x01, 0x01, 0x11, 0x00]);
    const twoFrames = Buffer.concat([jpeg.subarray(0, 2), sof, jpeg.subarray(2)]);
    expect(() => declaredDimensions(twoFrames, 'jpeg')).toThrow(
      expect.objectContaining({ code: 'CORRUPT_DOCUMENT', message: expect.stringContaining('two frame headers') }),
    );
    await expect(frames(twoFrames, 'jpeg')).rejects.toMatchObject({ code: 'CORRUPT_DOCUMENT' });
    expect(await frames(jpeg, 'jpeg')).toBe(1);
  });

  it('refuses a segment whose length runs past the end of the file', () => {
    const cut = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x40, 0x00, 0x4a, 0x46]);
    expect(() => declaredDimensions(cut, 'jpeg')).toThrow(expect.objectContaining({ code: 'CORRUPT_DOCUMENT' }));
  });
});
