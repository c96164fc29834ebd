import fs from 'node:fs';
import { workerData } from 'node:worker_threads';
import { Tokenizer } from '@huggingface/tokenizers';
import type * as OnnxRuntime from 'onnxruntime-node';
import type { TextLanguage } from '../contracts/localModel';
import type { BgeModelFiles } from './bgeModelFiles';

/**
 * A thread of the bge pool (embedders/bgeEmbedder.ts): tokenizes and runs one language's model for
 * one sub-batch at a time, off the caller's event loop (onnxruntime-node computes on the thread
 * that calls run()). Each language's session loads on its first task in this thread.
 */

export interface BgeThreadData {
  sluiceBge: {
    files: Record<TextLanguage, BgeModelFiles>;
    /** Each language's vector size (en 384, zh 512). */
    dimensions: Record<TextLanguage, number>;
    /** Ids per text, [CLS] and [SEP] included (the models were trained on at most 512). */
    maxTokens: number;
    /** Set in the process environment before onnxruntime loads (the thread shares it). */
    runtimeEnv: Record<string, string>;
  };
}

export interface BgeTask {
  language: TextLanguage;
  texts: string[];
}

interface Model {
  ort: typeof OnnxRuntime;
  session: OnnxRuntime.InferenceSession;
  tokenizer: Tokenizer;
  cls: number;
  sep: number;
  dimension: number;
}

const settings = (workerData as BgeThreadData).sluiceBge;
const models = new Map<TextLanguage, Promise<Model>>();

async function load(language: TextLanguage): Promise<Model> {
  // eslint-disable-next-line no-restricted-syntax -- not configuration read here: fixed values written for a native library.
  Object.assign(process.env, settings.runtimeEnv);
  const ort = await import('onnxruntime-node');
  const files = settings.files[language];
  // One intra-op thread per session: the pool's threads are the parallelism, as for USE.
  const session = await ort.InferenceSession.create(files.graph, {
    executionProviders: ['cpu'],
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
  });
  const tokenizer = new Tokenizer(JSON.parse(await fs.promises.readFile(files.tokenizer, 'utf8')) as object, {});
  const cls = tokenizer.token_to_id('[CLS]');
  const sep = tokenizer.token_to_id('[SEP]');
  if (cls === undefined || sep === undefined) throw new Error(`${files.tokenizer} has no [CLS] or [SEP] token`);
  return { ort, session, tokenizer, cls, sep, dimension: settings.dimensions[language] };
}

function modelOf(language: TextLanguage): Promise<Model> {
  let model = models.get(language);
  if (!model) {
    model = load(language);
    // A failed load is reported to each task that awaits it, and tried again by the next one.
    model.catch(() => models.delete(language));
    models.set(language, model);
  }
  return model;
}

/**
 * One L2-normalised vector per text (the [CLS] token's last hidden state, as bge is pooled),
 * concatenated in order. One text per session run: padded batches ran no faster on the CPU (32
 * texts of about 220 tokens in batches of 8: 621 ms against 518 ms one by one, bge-zh), and int8's
 * per-run quantization makes a padded text's vector depend on its batch (cosine 0.987-0.996 against
 * the same text alone), where an unpadded run keeps a chunk's vector its own.
 */
export async function embed({ language, texts }: BgeTask): Promise<Float32Array> {
  const model = await modelOf(language);
  const vectors = new Float32Array(texts.length * model.dimension);
  for (const [i, text] of texts.entries()) vectors.set(await run(model, text), i * model.dimension);
  return vectors;
}

async function run({ ort, session, tokenizer, cls, sep, dimension }: Model, text: string): Promise<Float32Array> {
  const textIds = tokenizer.encode(text, { add_special_tokens: false }).ids;
  const kept = Math.min(textIds.length, settings.maxTokens - 2);
  const ids = new BigInt64Array(kept + 2);
  ids[0] = BigInt(cls);
  for (let i = 0; i < kept; i += 1) ids[i + 1] = BigInt(textIds[i] as number);
  ids[kept + 1] = BigInt(sep);
  const shape = [1, ids.length];
  const result = await session.run({
    input_ids: new ort.Tensor('int64', ids, shape),
    attention_mask: new ort.Tensor('int64', new BigInt64Array(ids.length).fill(1n), shape),
    token_type_ids: new ort.Tensor('int64', new BigInt64Array(ids.length), shape),
  });
  const hidden = result.last_hidden_state;
  if (hidden?.type !== 'float32' || hidden.data.length !== ids.length * dimension) {
    throw new Error(`the model returned ${hidden?.data.length ?? 0} ${hidden?.type ?? ''} values for one text`);
  }
  const vector = (hidden.data as Float32Array).slice(0, dimension);
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < vector.length; i += 1) vector[i] = (vector[i] as number) / norm;
  return vector;
}
