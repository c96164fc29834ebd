import path from 'node:path';
import { SHARE_ENV } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { Embedder } from './embedder';
import { assertLocalModelPresent, LOCAL_MODEL } from './localModelFiles';
import type { EmbedTask, ModelThreadData } from './localModelThread';

export interface LocalModelEmbedderOptions {
  /** Holds `<model name>/model.onnx` and `sentencepiece.model` (SLUICE_MODEL_DIR). */
  modelDir: string;
  /** Threads, each with its own session: one batch is split over all of them (SLUICE_MODEL_THREADS). */
  threads: number;
  /** Longer texts are cut to their first this many tokens, BOS and EOS included (SLUICE_MODEL_MAX_TOKENS). */
  maxTokens: number;
}

export interface LocalModelEmbedder extends Embedder {
  /** Stops the threads; a later embed() starts them again. */
  close(): Promise<void>;
}

/**
 * Without it onnxruntime 1.30 runs its telemetry (measured: it creates a device id and an event
 * database under ~/.cache/Microsoft and a log in /tmp, and uploads over HTTPS).
 */
const RUNTIME_ENV = { ORT_DISABLE_TELEMETRY: '1' };

/** A token never spans more characters than this: what lies beyond the limit times this can only be cut off. */
const MAX_CHARS_PER_TOKEN = 16;

/** The thread module as this process loads its own code: compiled JavaScript, or TypeScript under tsx/Jest. */
const THREAD_MODULE = path.join(__dirname, `localModelThread${path.extname(__filename)}`);
/** Threads started from TypeScript source register tsx first (the cpu pool's entry does just that). */
const TSX_THREAD = path.join(__dirname, '..', 'cpuPool', 'tsxThread.js');

/**
 * The embedded default embedder: the Universal Sentence Encoder multilingual on the CPU, offline.
 * Each batch is split into one contiguous part per thread, so a single VECTORIZING activity uses
 * every core, and tokenizing and inference stay off the caller's event loop. The threads (and
 * ~100 MB of model memory each) start on first use: a process that never embeds loads nothing.
 */
export function createLocalModelEmbedder(options: LocalModelEmbedderOptions): LocalModelEmbedder {
  const files = assertLocalModelPresent(options.modelDir);
  const threads = Math.max(1, options.threads);
  const workerData: ModelThreadData & { sluiceTaskModule: string } = {
    sluiceTaskModule: THREAD_MODULE,
    sluiceModel: {
      graph: files.graph,
      sentencePiece: files.sentencePiece,
      maxTokens: options.maxTokens,
      runtimeEnv: RUNTIME_ENV,
    },
  };
  let pool: Piscina | null = null;
  const poolOf = (): Piscina =>
    (pool ??= new Piscina({
      filename: THREAD_MODULE.endsWith('.ts') ? TSX_THREAD : THREAD_MODULE,
      name: 'embed',
      workerData,
      minThreads: threads,
      maxThreads: threads,
      // onnxruntime reads its settings from the process environment, not from a thread's copy.
      env: SHARE_ENV,
      // Not the parent's flags: under tsx they install its ESM loader in every thread.
      execArgv: [],
      atomics: 'disabled',
      recordTiming: false,
    }));
  const charLimit = options.maxTokens * MAX_CHARS_PER_TOKEN;

  return {
    model: LOCAL_MODEL.name,
    dimension: LOCAL_MODEL.dimension,
    async embed(texts) {
      // Cut here so a huge text is not copied to a thread only to be cut there.
      const cut = texts.map((text) => (text.length > charLimit ? text.slice(0, charLimit) : text));
      const parts = split(cut, threads);
      const outputs = await Promise.all(
        parts.map((part) => poolOf().run({ texts: part } satisfies EmbedTask) as Promise<Float32Array>),
      );
      return outputs.flatMap((output, i) => rows(output, (parts[i] as string[]).length));
    },
    async close() {
      const closing = pool;
      pool = null;
      await closing?.destroy();
    },
  };
}

/** At most `count` contiguous parts of near-equal size, none empty. */
function split<T>(items: T[], count: number): T[][] {
  const size = Math.ceil(items.length / Math.max(1, count));
  const parts: T[][] = [];
  for (let i = 0; i < items.length; i += size) parts.push(items.slice(i, i + size));
  return parts;
}

function rows(output: Float32Array, expected: number): number[][] {
  const { dimension } = LOCAL_MODEL;
  if (output.length !== expected * dimension) {
    throw new Error(
      `the local model returned ${output.length} values for ${expected} texts; expected ${expected * dimension}`,
    );
  }
  return Array.from({ length: expected }, (_, i) => Array.from(output.subarray(i * dimension, (i + 1) * dimension)));
}
