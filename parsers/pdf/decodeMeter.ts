import { readFile } from 'node:fs/promises';

/**
 * pdf.js decodes streams inside its worker module and exposes no hook or limit for it: a 600 KB
 * PDF whose one stream inflates to 600 MB is decoded whole. The module is therefore loaded from
 * its installed source with a call to the decode budget (decodeBudget.ts) in front of each place
 * that allocates decoded bytes. Each anchor must occur exactly once in the pinned pdfjs-dist; a
 * version that moved one fails loudly here (and in its unit test), never silently unmetered.
 */
const METER_CALL = "globalThis[Symbol.for('sluice.pdfDecodedBytes')]?.";

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
