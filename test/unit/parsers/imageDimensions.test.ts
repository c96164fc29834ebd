import { createCanvas } from '@napi-rs/canvas';
import { declaredDimensions } from '../../../parsers/image/imageDimensions';

async function encoded(format: 'png' | 'jpeg' | 'webp', width: number, height: number): Promise<Buffer> {
  const canvas = createCanvas(width, height);
  canvas.getContext('2d').fillRect(0, 0, width / 2, height / 2);
  return format === 'png' ? canvas.encode('png') : canvas.encode(format, 80);
}

it.each(['png', 'jpeg', 'webp'] as const)(
  'reads the size a real %s declares, as its encoder wrote it',
  async (format) => {
    expect(declaredDimensions(await encoded(format, 321, 123), format)).toEqual({ width: 321, height: 123 });
  },
);

it('reads a lossless WebP header, and a JPEG whose start-of-frame follows other segments and fill bytes', async () => {
  const canvas = createCanvas(77, 55);
  const lossless = await canvas.encode('webp', 100);
  expect(declaredDimensions(lossless, 'webp')).toEqual({ width: 77, height: 55 });
  const jpeg = await encoded('jpeg', 64, 48);
  const comment = Buffer.from([0xff, 0xff, 0xfe, 0x00, 0x06, 0x61, 0x62, 0x63, 0x64]);
  const padded = Buffer.concat([jpeg.subarray(0, 2), comment, jpeg.subarray(2)]);
  expect(declaredDimensions(padded, 'jpeg')).toEqual({ width: 64, height: 48 });
});

it('refuses a header that declares no size as CORRUPT_DOCUMENT', () => {
  const scanFirst = Buffer.from([0xff, 0xd8, 0xff, 0xda, 0x00, 0x08, 1, 2, 3, 4, 5, 6]);
  for (const [bytes, format] of [
    [scanFirst, 'jpeg'],
    [Buffer.from('RIFF\0\0\0\0WEBPXXXX' + ' '.repeat(20), 'latin1'), 'webp'],
    [Buffer.alloc(10), 'png'],
  ] as const)
    expect(() => declaredDimensions(bytes, format)).toThrow(expect.objectContaining({ code: 'CORRUPT_DOCUMENT' }));
});
