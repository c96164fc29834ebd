import { readFile } from 'node:fs/promises';
import type * as OnnxRuntime from 'onnxruntime-node';
import type { OcrModelFiles } from './ocrModels';
import { readingOrder, type OcrLine } from './readingOrder';
import type { RgbaImage } from './rgbaImage';
import { detectText, type DetectorOptions } from './textDetector';
import { recognizeLines } from './textRecognizer';

export interface OcrPageResult {
  /** Lines in reading order, each with its box in the image's pixels and its confidence. */
  lines: OcrLine[];
  /** Character-weighted mean of the lines' confidences, 0..1; 0 when nothing was read. */
  confidence: number;
}

export interface OcrEngine {
  recognize(image: RgbaImage): Promise<OcrPageResult>;
}

/**
 * Settings chosen on maint-guide's English and Chinese manuals (bench/ocr.ts tuning split);
 * debmake-doc's pages are held out to measure them.
 */
export const DEFAULT_DETECTOR: DetectorOptions = {
  maxSide: 1280,
  pixelThreshold: 0.3,
  boxThreshold: 0.5,
  unclipRatio: 1.6,
};
/** Lines below this confidence are more often noise (a rule, a logo) than text. */
const MIN_LINE_CONFIDENCE = 0.5;
const RECOGNITION_BATCH = 8;

/**
 * Tells onnxruntime not to start its telemetry (it would write a device id under ~/.cache and
 * upload events); read by the native library with getenv, so it must be in the environment.
 */
const RUNTIME_ENV = { ORT_DISABLE_TELEMETRY: '1' };

/**
 * PP-OCRv4 detection then recognition on onnxruntime's CPU provider, one intra-op thread per
 * session: each process of the CPU pool is one core's worth of OCR, and the pool's processes are
 * the parallelism. Loaded once per process, on first use.
 */
export async function loadPpOcrEngine(
  files: OcrModelFiles,
  detector: DetectorOptions = DEFAULT_DETECTOR,
): Promise<OcrEngine> {
  // eslint-disable-next-line no-restricted-syntax -- not configuration read here: a fixed value written for a native library.
  Object.assign(process.env, RUNTIME_ENV);
  const ort = await import('onnxruntime-node');
  const options: OnnxRuntime.InferenceSession.SessionOptions = {
    executionProviders: ['cpu'],
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
  };
  const [detection, recognition, alphabetText] = await Promise.all([
    ort.InferenceSession.create(files.detection, options),
    ort.InferenceSession.create(files.recognition, options),
    readFile(files.alphabet, 'utf8'),
  ]);
  // The last class is the space the models were trained with (use_space_char).
  const alphabet = [...alphabetText.split(/\r?\n/).filter((line) => line !== ''), ' '];
  return {
    async recognize(image) {
      const boxes = await detectText(ort, detection, image, detector);
      const decoded = await recognizeLines(ort, recognition, image, boxes, alphabet, RECOGNITION_BATCH);
      const read = boxes
        .map((box, i) => ({ ...box, text: decoded[i]!.text, confidence: decoded[i]!.confidence }))
        .filter((line) => line.confidence >= MIN_LINE_CONFIDENCE);
      const lines = readingOrder(read);
      let weighted = 0;
      let chars = 0;
      for (const line of lines) {
        weighted += line.confidence * line.text.length;
        chars += line.text.length;
      }
      return { lines, confidence: chars === 0 ? 0 : weighted / chars };
    },
  };
}
