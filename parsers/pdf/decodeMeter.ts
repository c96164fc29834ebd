import { readFile } from 'node:fs/promises';

/**
 * pdf.js decodes streams and images inside its worker module and exposes no hook or limit for it:
 * a 600 KB PDF whose one stream inflates to 600 MB is decoded whole, and so is a JPEG whose frame
 * header declares 30000 × 30000. The module is therefore loaded from
 * its installed source with a call to the decode budget (decodeBudget.ts) in front of each place
 * that allocates decoded bytes. Each anchor must occur exactly once in the pinned pdfjs-dist; a
 * version that moved one fails loudly here (and in its unit test), never silently unmetered.
 */
const METER_CALL = "globalThis[Symbol.for('sluice.pdfDecodedBytes')]?.";

/** The pixels an image stream's dictionary declares (`this.dict` inside pdf.js's stream classes); 0 when it says none. */
function declaredPixels(widthKeys: string, heightKeys: string): string {
  return `(Number(this.dict.get(${widthKeys})) || 0) * (Number(this.dict.get(${heightKeys})) || 0)`;
}

const ANCHORS: readonly { name: string; find: string; insertBefore: string }[] = [
  {
    name: 'DecodeStream.ensureBuffer',
    find: '    const buffer2 = new Uint8Array(size);\n    buffer2.set(buffer);\n',
    insertBefore: `    ${METER_CALL}(size - buffer.byteLength);\n`,
  },
  {
    name: 'DecodeStream.asyncGetBytesFromDecompressionStream',
    find: '        totalLength += chunk.byteLength;\n',
    insertBefore: `        ${METER_CALL}(chunk.byteLength);\n`,
  },
  {
    name: 'BrotliDecode',
    find: '      let chunk = new Int8Array(16384);\n',
    insertBefore: `      ${METER_CALL}(16384);\n`,
  },
  // Images: a JPEG's coefficient blocks as its frame header sizes them, then its pixels; JBIG2,
  // CCITT (WebAssembly) and JPX at the size their image dictionary declares, before they decode.
  {
    name: 'JpegImage.prepareComponents',
    find: '    component.blockData = new Int16Array(blocksBufferSize);\n',
    insertBefore: `    ${METER_CALL}(blocksBufferSize * 2);\n`,
  },
  {
    name: 'JpegStream.decodeImage',
    find: '    const data = jpegImage.getData({\n',
    insertBefore: `    ${METER_CALL}(jpegImage.width * jpegImage.height * 4);\n`,
  },
  {
    name: 'Jbig2Stream.decodeImage',
    find: '      this.buffer = await JBig2CCITTFaxWasmImage.decode(bytes, this.dict.get("Width"), this.dict.get("Height"), globals);\n',
    insertBefore: `      ${METER_CALL}(${declaredPixels('"Width"', '"Height"')} / 8);\n`,
  },
  {
    name: 'Jbig2Stream.decodeImageFallback',
    find: '    const data = jbig2Image.parseChunks(chunks);\n',
    insertBefore: `    ${METER_CALL}(${declaredPixels('"Width"', '"Height"')} / 8);\n`,
  },
  {
    name: 'CCITTFaxStream.decodeImage',
    find: '      this.buffer = await JBig2CCITTFaxWasmImage.decode(bytes, this.dict.get("W", "Width"), this.dict.get("H", "Height"), null, this.params);\n',
    insertBefore: `      ${METER_CALL}(${declaredPixels('"W", "Width"', '"H", "Height"')} / 8);\n`,
  },
  {
    name: 'JpxStream.decodeImage',
    find: '    this.buffer = await JpxImage.decode(bytes, decoderOptions);\n',
    insertBefore: `    ${METER_CALL}(${declaredPixels('"Width"', '"Height"')} * 4);\n`,
  },
];

export const PDF_WORKER_MODULE = 'pdfjs-dist/legacy/build/pdf.worker.mjs';

/** The worker module's source with every decoder metered. */
export function meterDecoders(source: string): string {
  // Its source map is named relative to the file, which a module loaded from memory has not.
  let patched = source.replace(/\n\/\/# sourceMappingURL=[^\n]*\s*$/, '\n');
  for (const anchor of ANCHORS) {
    const at = patched.indexOf(anchor.find);
    if (at < 0 || patched.indexOf(anchor.find, at + 1) >= 0)
      throw new Error(`pdf.js's ${anchor.name} is not where sluice meters decoded bytes: check the pdfjs-dist version`);
    patched = patched.slice(0, at) + anchor.insertBefore + patched.slice(at);
  }
  return patched;
}

/** The metered worker module, imported from memory: nothing is written to disk or node_modules. */
export async function importMeteredWorker(): Promise<unknown> {
  const source = await readFile(require.resolve(PDF_WORKER_MODULE), 'utf8');
  const url = `data:text/javascript;base64,${Buffer.from(meterDecoders(source)).toString('base64')}`;
  return import(url) as Promise<unknown>;
}
