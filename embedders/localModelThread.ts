import { workerData } from 'node:worker_threads';
import type * as OnnxRuntime from 'onnxruntime-node';
import { LOCAL_MODEL } from './localModelFiles';
import { loadSentencePieceTokenizer, type SentencePieceTokenizer } from './sentencePieceTokenizer';

/**
 * A thread of the local model's pool (embedders/localModelEmbedder.ts): tokenizes and runs the
 * model for one sub-batch at a time. onnxruntime-node's run() computes on the thread that calls
 * it (measured: the event loop stood still for the whole run), so it must not be the worker's
 * main thread. Piscina loads this module when the thread starts, which starts loading the model.
 */

export interface ModelThreadData {
  sluiceModel: {
    graph: string;
    sentencePiece: string;
    /** Ids per text, BOS and EOS included. */
    maxTokens: number;
    /** Set in the process environment before onnxruntime loads (the thread shares it). */
    runtimeEnv: Record<string, string>;
  };
}

export interface EmbedTask {
  texts: string[];
}

interface Model {
  ort: typeof OnnxRuntime;
  session: OnnxRuntime.InferenceSession;
  tokenizer: SentencePieceTokenizer;
}

const settings = (workerData as ModelThreadData).sluiceModel;

async function load(): Promise<Model> {
  // onnxruntime reads its settings (ORT_DISABLE_TELEMETRY) with getenv, so they must be in the
  // real environment: the pool starts this thread with SHARE_ENV for that.
  // eslint-disable-next-line no-restricted-syntax -- not configuration read here: fixed values written for a native library.
  Object.assign(process.env, settings.runtimeEnv);
  const ort = await import('onnxruntime-node');
  // One intra-op thread per session: the pool's threads are the parallelism (measured faster
  // than one session spreading each run over the cores).
  const session = await ort.InferenceSession.create(settings.graph, {
    executionProviders: ['cpu'],
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
  });
  const tokenizer = await loadSentencePieceTokenizer(settings.sentencePiece);
  return { ort, session, tokenizer };
}

const model = load();
// A failed load is reported to each task that awaits it, not as an unhandled rejection.
model.catch(() => undefined);

/**
 * One L2-normalised 512-d vector per text, concatenated in the order given. Each text is a session
 * run of its own: the graph quantises activations per run (DynamicQuantizeLinear), so texts run
 * together would change each other's vectors (measured: by up to 4e-4 per value), and a chunk's
 * vector would depend on its batch. The price, measured per thread against runs of up to 1,024
 * tokens: none for 512-token texts (29/s both), 1.4x for 140-token texts, 2.2x for one-liners
 * (156 vs 346/s). Working memory follows the run's tokens (~55 KB each): one text's, whatever the batch.
 */
export async function embed({ texts }: EmbedTask): Promise<Float32Array> {
  const loaded = await model;
  const vectors = new Float32Array(texts.length * LOCAL_MODEL.dimension);
  for (const [i, text] of texts.entries()) {
    vectors.set(await run(loaded, loaded.tokenizer.encode(text, settings.maxTokens - 2)), i * LOCAL_MODEL.dimension);
  }
  return vectors;
}

/** One text through the model: its ids between BOS and EOS, as a batch of one row. */
async function run({ ort, session }: Model, textIds: number[]): Promise<Float32Array> {
  const ids = new Int32Array(textIds.length + 2);
  ids[0] = LOCAL_MODEL.bos;
  ids.set(textIds, 1);
  ids[ids.length - 1] = LOCAL_MODEL.eos;
  const result = await session.run({
    ids: new ort.Tensor('int32', ids, [ids.length]),
    row_splits: new ort.Tensor('int64', BigInt64Array.of(0n, BigInt(ids.length)), [2]),
  });
  const output = result.outputs;
  if (output?.type !== 'float32' || output.data.length !== LOCAL_MODEL.dimension) {
    throw new Error(`the model returned ${output?.data.length ?? 0} ${output?.type ?? ''} values for one text`);
  }
  return output.data as Float32Array;
}
