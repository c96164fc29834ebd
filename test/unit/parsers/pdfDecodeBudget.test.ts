import { readFileSync } from 'node:fs';
import { decodedLimit, DECODED_FLOOR_BYTES, DECODE_METER, PdfDecodeBudget } from '../../../parsers/pdf/decodeBudget';
import { meterDecoders, PDF_WORKER_MODULE } from '../../../parsers/pdf/decodeMeter';

const MB = 1024 * 1024;

describe('the decode meter patch', () => {
  const source = readFileSync(require.resolve(PDF_WORKER_MODULE), 'utf8');

  it("meters each of pdf.js's allocation sites of decoded bytes and images in the installed pdfjs-dist", () => {
    const patched = meterDecoders(source);
    const calls = patched.split("globalThis[Symbol.for('sluice.pdfDecodedBytes')]?.").length - 1;
    // Three stream filters; JPEG blocks and pixels, JBIG2 (WebAssembly and JavaScript), CCITT, JPX.
    expect(calls).toBe(9);
    expect(patched).toContain(
      'globalThis[Symbol.for(\'sluice.pdfDecodedBytes\')]?.((Number(this.dict.get("Width")) || 0) * (Number(this.dict.get("Height")) || 0) * 4);\n    this.buffer = await JpxImage.decode(',
    );
    expect(Symbol.for('sluice.pdfDecodedBytes')).toBe(DECODE_METER);
    expect(patched).not.toContain('sourceMappingURL');
  });

  it('fails loudly when an anchor is missing or doubled, rather than loading an unmetered pdf.js', () => {
    const moved = source.replace(
      '        totalLength += chunk.byteLength;\n',
      '        totalLength+=chunk.byteLength;\n',
    );
    expect(() => meterDecoders(moved)).toThrow('asyncGetBytesFromDecompressionStream');
    const doubled = `${source}\n      let chunk = new Int8Array(16384);\n`;
    expect(() => meterDecoders(doubled)).toThrow('BrotliDecode');
  });
});

describe('PdfDecodeBudget', () => {
  it('allows a floor for any file, a ratio above it, and never more than the ceiling', () => {
    const limits = { maxBytes: 512 * MB, perSourceByte: 32 };
    expect(decodedLimit(limits, 600 * 1024)).toBe(DECODED_FLOOR_BYTES);
    expect(decodedLimit(limits, 10 * MB)).toBe(320 * MB);
    expect(decodedLimit(limits, 100 * MB)).toBe(512 * MB);
  });

  it('refuses the allocation that would pass the limit, keeps refusing, and reports FILE_TOO_LARGE', () => {
    const budget = new PdfDecodeBudget(10);
    budget.charge(6);
    budget.check();
    expect(() => budget.charge(5)).toThrow('would exceed 10 bytes');
    budget.nextWindow();
    expect(() => budget.charge(1)).toThrow('would exceed');
    expect(() => budget.check()).toThrow(expect.objectContaining({ code: 'FILE_TOO_LARGE', permanent: true }));
  });

  it('starts each page afresh: what a page decoded is released with it', () => {
    const budget = new PdfDecodeBudget(10);
    budget.charge(8);
    budget.nextWindow();
    budget.charge(8);
    expect(() => budget.check()).not.toThrow();
  });

  it('is charged through the global meter only while open', () => {
    const meter = () => (globalThis as { [DECODE_METER]?: (bytes: number) => void })[DECODE_METER]!;
    const budget = PdfDecodeBudget.open(4);
    expect(() => meter()(5)).toThrow('would exceed 4 bytes');
    budget.release();
    expect(() => meter()(5)).not.toThrow();
  });
});
