import type { PixelBox } from './rgbaImage';

export interface ScoredBox extends PixelBox {
  /** Mean probability of the region's pixels: how sure the detector is that it is text. */
  score: number;
}

export interface RegionOptions {
  /** A pixel is text when its probability is above this (DB's binarisation threshold). */
  pixelThreshold: number;
  /** A region is kept when the mean probability of its pixels is above this. */
  boxThreshold: number;
  /** Regions smaller than this (either side, in map pixels) are noise. */
  minSide: number;
}

/**
 * The text regions of a detector's probability map: 4-connected components of the pixels above
 * the threshold, each as its bounding box with its mean probability. One pass over the map with
 * an explicit queue (no recursion), each pixel visited once: linear in the map's size.
 */
export function textRegions(map: Float32Array, width: number, height: number, options: RegionOptions): ScoredBox[] {
  const seen = new Uint8Array(width * height);
  const queue = new Int32Array(width * height);
  const boxes: ScoredBox[] = [];
  for (let start = 0; start < map.length; start++) {
    if (seen[start] || map[start]! <= options.pixelThreshold) continue;
    seen[start] = 1;
    let head = 0;
    let tail = 0;
    queue[tail++] = start;
    let left = width;
    let right = -1;
    let top = height;
    let bottom = -1;
    let sum = 0;
    while (head < tail) {
      const at = queue[head++]!;
      const x = at % width;
      const y = (at - x) / width;
      sum += map[at]!;
      if (x < left) left = x;
      if (x > right) right = x;
      if (y < top) top = y;
      if (y > bottom) bottom = y;
      const visit = (next: number): void => {
        if (!seen[next] && map[next]! > options.pixelThreshold) {
          seen[next] = 1;
          queue[tail++] = next;
        }
      };
      if (x > 0) visit(at - 1);
      if (x < width - 1) visit(at + 1);
      if (y > 0) visit(at - width);
      if (y < height - 1) visit(at + width);
    }
    const score = sum / tail;
    if (right - left + 1 < options.minSide || bottom - top + 1 < options.minSide) continue;
    if (score < options.boxThreshold) continue;
    boxes.push({ left, top, right: right + 1, bottom: bottom + 1, score });
  }
  return boxes;
}

/**
 * DB predicts text shrunk by a margin; the region grows back by area × ratio / perimeter on each
 * side (the inverse of the shrink it was trained with), clipped to the image.
 */
export function unclip(box: ScoredBox, ratio: number, width: number, height: number): ScoredBox {
  const w = box.right - box.left;
  const h = box.bottom - box.top;
  const grow = (w * h * ratio) / (2 * (w + h));
  return {
    left: Math.max(0, box.left - grow),
    top: Math.max(0, box.top - grow),
    right: Math.min(width, box.right + grow),
    bottom: Math.min(height, box.bottom + grow),
    score: box.score,
  };
}
