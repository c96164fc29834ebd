import type * as OnnxRuntime from 'onnxruntime-node';
import { ctcDecode, type DecodedLine } from './ctcDecode';
import { sampleInto, type PixelBox, type RgbaImage } from './rgbaImage';

/** The recogniser reads lines scaled to this height. */
const LINE_HEIGHT = 48;
/** Lines are padded to at least this width, as in training. */
const MIN_WIDTH = 320;
/** A line longer than this (about 70 characters a line-height) is squeezed to it. */
const MAX_WIDTH = 3200;
const RECOGNITION_NORMAL = { mean: [0.5, 0.5, 0.5], std: [0.5, 0.5, 0.5] } as const;

/**
 * PP-OCR's SVTR-LCNet recogniser over the given line boxes: each crop scaled to 48 pixels high at
 * its aspect ratio, lines of similar width batched together (padding costs compute), CTC-decoded.
 * Results come back in the order of `boxes`.
 */
export async function recognizeLines(
  ort: typeof OnnxRuntime,
  session: OnnxRuntime.InferenceSession,
  image: RgbaImage,
  boxes: readonly PixelBox[],
  alphabet: readonly string[],
  batchSize: number,
): Promise<DecodedLine[]> {
  const widths = boxes.map((box) => lineWidth(box));
  const order = boxes.map((_, i) => i).sort((a, b) => widths[a]! - widths[b]!);
  const results: DecodedLine[] = new Array<DecodedLine>(boxes.length);
  for (let start = 0; start < order.length; start += batchSize) {
    const batch = order.slice(start, start + batchSize);
    const padded = batch.reduce((widest, i) => Math.max(widest, widths[i]!), MIN_WIDTH);
    const plane = LINE_HEIGHT * padded;
    // Zero after normalisation is mid-grey: the padding the models were trained with.
    const input = new Float32Array(batch.length * 3 * plane);
    for (const [slot, i] of batch.entries()) {
      sampleInto(
        image,
        boxes[i]!,
        { width: widths[i]!, height: LINE_HEIGHT, rowStride: padded, offset: slot * 3 * plane, out: input },
        RECOGNITION_NORMAL,
      );
    }
    const feeds = {
      [session.inputNames[0]!]: new ort.Tensor('float32', input, [batch.length, 3, LINE_HEIGHT, padded]),
    };
    const output = (await session.run(feeds))[session.outputNames[0]!]!;
    const [, steps = 0, classes = 0] = output.dims;
    const probs = output.data as Float32Array;
    for (const [slot, i] of batch.entries()) {
      results[i] = ctcDecode(probs, slot * steps * classes, steps, classes, alphabet);
    }
    output.dispose();
  }
  return results;
}

function lineWidth(box: PixelBox): number {
  const ratio = (box.right - box.left) / Math.max(1, box.bottom - box.top);
  return Math.min(MAX_WIDTH, Math.max(8, Math.ceil(LINE_HEIGHT * ratio)));
}
