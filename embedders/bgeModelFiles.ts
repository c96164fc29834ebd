import fs from 'node:fs';
import path from 'node:path';
import { BGE_MODEL_IDENTITIES, type TextLanguage } from '../contracts/localModel';
import { permanentError } from '../contracts/sluiceError';
import type { LanguageDenseSetting } from '../config/config';

/** The files scripts/stack/bge.sh unpacks from a model's jar; never committed. */
export interface BgeModelFiles {
  /** The int8 graph: inputs input_ids, attention_mask, token_type_ids (int64); output last_hidden_state. */
  graph: string;
  /** The Hugging Face tokenizer (BERT WordPiece) the graph was exported with. */
  tokenizer: string;
}

export const BGE_LANGUAGES = Object.keys(BGE_MODEL_IDENTITIES) as TextLanguage[];

export function bgeModelFiles(modelDir: string, language: TextLanguage): BgeModelFiles {
  const dir = path.join(modelDir, BGE_MODEL_IDENTITIES[language].name);
  return { graph: path.join(dir, 'model.onnx'), tokenizer: path.join(dir, 'tokenizer.json') };
}

function allBgeModelFiles(modelDir: string): Record<TextLanguage, BgeModelFiles> {
  return Object.fromEntries(BGE_LANGUAGES.map((l) => [l, bgeModelFiles(modelDir, l)])) as Record<
    TextLanguage,
    BgeModelFiles
  >;
}

function missingFiles(files: Record<TextLanguage, BgeModelFiles>): string[] {
  return Object.values(files)
    .flatMap((f) => [f.graph, f.tokenizer])
    .filter((file) => !fs.existsSync(file));
}

/** Whether every file of both languages' models is in `modelDir` (scripts/stack/bge.sh installs them). */
export function bgeModelsInstalled(modelDir: string): boolean {
  return missingFiles(allBgeModelFiles(modelDir)).length === 0;
}

/**
 * Whether this process runs the second dense vector: `on` and `off` as set; `auto` where the models
 * are installed, so a deployment that has them gets the better retrieval without asking, and one
 * that has not (a slim image) starts as before instead of failing.
 */
export function languageDenseEnabled(setting: LanguageDenseSetting, modelDir: string): boolean {
  return setting === 'on' || (setting === 'auto' && bgeModelsInstalled(modelDir));
}

/** Checked when the embedders are built, so a missing model stops start-up instead of the first document. */
export function assertBgeModelsPresent(modelDir: string): Record<TextLanguage, BgeModelFiles> {
  const files = allBgeModelFiles(modelDir);
  const missing = missingFiles(files);
  if (missing.length > 0) {
    throw permanentError(
      'LLM_CONFIG_MISSING',
      `the language models of the second dense vector are not installed (missing ${missing.join(', ')}): ` +
        'run `bash scripts/stack.sh start`, which downloads them, set SLUICE_MODEL_DIR to where they are, ' +
        'or set SLUICE_LANGUAGE_DENSE=off',
    );
  }
  return files;
}
