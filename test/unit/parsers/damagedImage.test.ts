import { imageFrames } from '../../../parsers/image/decodeImage';

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

async function firstFrame(bytes: Buffer, format: 'png' | 'tiff'): Promise<unknown> {
  for await (const frame of imageFrames(bytes, format)) return frame;
  return null;
}

it('classifies an image whose bytes do not decode as CORRUPT_DOCUMENT', async () => {
  await expect(firstFrame(Buffer.concat([PNG_MAGIC, Buffer.alloc(256, 7)]), 'png')).rejects.toMatchObject({
    code: 'CORRUPT_DOCUMENT',
  });
  await expect(firstFrame(Buffer.from([0x49, 0x49, 0x2a, 0x00, 0xff, 0xff, 0xff, 0x7f]), 'tiff')).rejects.toMatchObject(
    { code: 'CORRUPT_DOCUMENT' },
  );
});
