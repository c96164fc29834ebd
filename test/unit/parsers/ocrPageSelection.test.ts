import { needsImageCheck, pageSource } from '../../../parsers/pdf/ocrDecision';
import { isGarbled, MAX_VOWELLESS_SHARE, textLayerQuality } from '../../../parsers/pdf/textLayerQuality';

const PROSE =
  'The Debian packaging of the package, containing a simple C source following the GNU Coding Standards ' +
  'and FHS, can be done with the debmake command as follows. If manual adjustments of generated ' +
  'configuration files are skipped, the generated binary package lacks a meaningful description.';
const CHINESE =
  '作者在更新原有的使用软件包的新维护者手册时感受到了文档的局限性。因此，作者决定创建一个替代工具并编写其对应的文档以解决某些现代的需求。'.repeat(
    3,
  );
/** The prose with each letter moved on by three: what a subset font without ToUnicode gives. */
const SHIFTED = PROSE.replace(/[a-z]/g, (c) => String.fromCharCode(((c.charCodeAt(0) - 97 + 3) % 26) + 97));

describe('garbled text layers (broken ToUnicode maps)', () => {
  it('takes real English, Chinese and code-like text for text', () => {
    expect(isGarbled(textLayerQuality(PROSE))).toBe(false);
    expect(isGarbled(textLayerQuality(CHINESE))).toBe(false);
    expect(isGarbled(textLayerQuality('$ tar -xvzf package-1.0.tar.gz\n$ cd package-1.0\n$ debmake\n'.repeat(5)))).toBe(
      false,
    );
  });

  it('finds private-use glyph codes, control characters and U+FFFD', () => {
    const pua = Array.from({ length: 200 }, (_, i) => String.fromCharCode(0xe000 + (i % 300))).join('');
    expect(isGarbled(textLayerQuality(pua))).toBe(true);
    expect(isGarbled(textLayerQuality('\u0001\u0002\u0003\u0004'.repeat(40) + PROSE))).toBe(true);
    expect(isGarbled(textLayerQuality('\ufffd'.repeat(50) + PROSE.slice(0, 200)))).toBe(true);
    // A stray replacement character in a page of prose is not mojibake.
    expect(isGarbled(textLayerQuality(`${PROSE}\ufffd${PROSE}`))).toBe(false);
  });

  it('finds Latin letters in a nonsense order: most words without a vowel', () => {
    const quality = textLayerQuality(SHIFTED);
    expect(quality.vowellessWords).toBeGreaterThan(quality.latinWords * MAX_VOWELLESS_SHARE);
    expect(isGarbled(quality)).toBe(true);
  });

  it('counts visible characters only', () => {
    expect(textLayerQuality(' a b\n\tc ').chars).toBe(3);
  });
});

describe('which pages of a PDF are OCR\u2019d', () => {
  const quality = (text: string) => textLayerQuality(text);

  it('keeps a page with a real text layer, whatever pictures it has', () => {
    expect(pageSource(quality(PROSE), null)).toBe('text');
    expect(pageSource(quality(PROSE + PROSE), 1)).toBe('text');
    expect(needsImageCheck(quality(PROSE + PROSE))).toBe(false);
  });

  it('OCRs a page with no text that shows an image, and skips a blank one', () => {
    expect(needsImageCheck(quality(''))).toBe(true);
    expect(pageSource(quality(''), 0.9)).toBe('ocr-no-text');
    expect(pageSource(quality(''), 0)).toBe('blank');
    expect(pageSource(quality('12'), 0.01)).toBe('ocr-no-text');
  });

  it('OCRs a garbled page without measuring its images', () => {
    expect(needsImageCheck(quality(SHIFTED))).toBe(false);
    expect(pageSource(quality(SHIFTED), null)).toBe('ocr-garbled');
  });

  it('OCRs a sparse page mostly covered by images (a scan with a stamped header line)', () => {
    const header = 'Scanned by the archive on 2026-11-03, box 14';
    expect(needsImageCheck(quality(header))).toBe(true);
    expect(pageSource(quality(header), 0.95)).toBe('ocr-image-page');
    expect(pageSource(quality(header), 0.2)).toBe('text');
  });
});
