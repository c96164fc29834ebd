import type * as OnnxRuntime from 'onnxruntime-node';
import { sampleInto, type RgbaImage } from './rgbaImage';
import { textRegions, unclip, type ScoredBox } from './textRegions';

/** ImageNet statistics, in the detector's blue-green-red channel order. */
const DETECTION_NORMAL = { mean: [0.406, 0.456, 0.485], std: [0.225, 0.224, 0.229] } as const;

export interface DetectorOptions {
  /** The longer side of the map the detector sees, in pixels (a multiple of 32 is used). */
  maxSide: number;
  pixelThreshold: number;
  boxThreshold: number;
  unclipRatio: number;
}

/**
 * PP-OCR's DB text detector: the page scaled so its longer side is at most `maxSide` (both sides
 * multiples of 32, as the network's strides need), one run, then the probability map's regions
 * as boxes in the page's own pixels. Upright text only: a page is rendered or scanned the right
 * way up, and rotated boxes are not looked for.
 */
export async function detectText(
  ort: typeof OnnxRuntime,
  session: OnnxRuntime.InferenceSession,
  image: RgbaImage,
  options: DetectorOptions,
): Promise<ScoredBox[]> {
  const scale = Math.min(1, options.maxSide / Math.max(image.width, image.height));
  const width = Math.max(32, Math.round((image.width * scale) / 32) * 32);
  const height = Math.max(32, Math.round((image.height * scale) / 32) * 32);
  const input = new Float32Array(3 * width * height);
  sampleInto(
    image,
    { left: 0, top: 0, right: image.width, bottom: image.height },
    { width, height, rowStride: width, offset: 0, out: input },
    DETECTION_NORMAL,
  );
  const feeds = { [session.inputNames[0]!]: new ort.Tensor('float32', input, [1, 3, height, width]) };
  const output = (await session.run(feeds))[session.outputNames[0]!]!;
  const map = output.data as Float32Array;
  const regions = textRegions(map, width, height, {
    pixelThreshold: options.pixelThreshold,
    boxThreshold: options.boxThreshold,
    minSide: 3,
  });
  output.dispose();
  const sx = image.width / width;
  const sy = image.height / height;
  return regions.map((region) => {
    const grown = unclip(region, options.unclipRatio, width, height);
    return {
      left: grown.left * sx,
      top: grown.top * sy,
      right: grown.right * sx,
      bottom: grown.bottom * sy,
      score: grown.score,
    };
  });
}
