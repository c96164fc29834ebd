import { ctcDecode } from '../../../ocr/ctcDecode';
import { readingOrder } from '../../../ocr/readingOrder';
import { textRegions, unclip } from '../../../ocr/textRegions';

describe('CTC decoding', () => {
  it('collapses repeats, drops blanks, keeps a doubled letter split by a blank, averages confidence', () => {
    const alphabet = ['a', 'b', 'o', 'k'];
    // Steps: b b _ o o _ o k  → "book"
    const steps = [2, 2, 0, 3, 3, 0, 3, 4];
    const classes = alphabet.length + 1;
    const probs = new Float32Array(steps.length * classes);
    steps.forEach((c, t) => {
      probs.fill(0.05, t * classes, (t + 1) * classes);
      probs[t * classes + c] = c === 4 ? 0.6 : 0.8;
    });
    const line = ctcDecode(probs, 0, steps.length, classes, alphabet);
    expect(line.text).toBe('book');
    expect(line.confidence).toBeCloseTo((0.8 * 3 + 0.6) / 4);
  });
});

describe('text regions of a probability map', () => {
  it('finds each connected blob above the threshold as its box with its mean score', () => {
    const width = 20;
    const height = 10;
    const map = new Float32Array(width * height);
    const fill = (x0: number, y0: number, x1: number, y1: number, p: number) => {
      for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) map[y * width + x] = p;
    };
    fill(1, 1, 9, 4, 0.9);
    fill(12, 6, 18, 9, 0.7);
    fill(0, 8, 2, 10, 0.9); // 2×2: below the minimum side of 3
    fill(12, 1, 18, 4, 0.35); // above the pixel threshold, below the box threshold
    const boxes = textRegions(map, width, height, { pixelThreshold: 0.3, boxThreshold: 0.5, minSide: 3 });
    expect(boxes).toEqual([
      { left: 1, top: 1, right: 9, bottom: 4, score: expect.closeTo(0.9, 5) as number },
      { left: 12, top: 6, right: 18, bottom: 9, score: expect.closeTo(0.7, 5) as number },
    ]);
    const grown = unclip(boxes[0]!, 1.5, width, height);
    expect(grown.left).toBeLessThan(1);
    expect(grown.right).toBeGreaterThan(9);
    expect(grown.top).toBe(0); // clipped to the image
  });

  it('is linear: a full map of one region does not recurse or rescan', () => {
    const side = 1500;
    const map = new Float32Array(side * side).fill(0.9);
    const boxes = textRegions(map, side, side, { pixelThreshold: 0.3, boxThreshold: 0.5, minSide: 3 });
    expect(boxes).toHaveLength(1);
  });
});

describe('reading order', () => {
  const box = (text: string, left: number, top: number, width = 100, height = 20) => ({
    text,
    confidence: 0.9,
    left,
    top,
    right: left + width,
    bottom: top + height,
  });

  it('reads lines top to bottom and the boxes of one line left to right, CJK without spaces', () => {
    const lines = readingOrder([
      box('second line', 10, 60),
      box('world', 130, 12),
      box('Hello', 10, 10),
      box('文档', 200, 100),
      box('处理', 10, 102),
    ]);
    expect(lines.map((l) => l.text)).toEqual(['Hello world', 'second line', '处理文档']);
  });
});
