import path from 'node:path';
import { SHARE_ENV } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { BGE_MODEL_IDENTITIES, type TextLanguage } from '../contracts/localModel';
import type { Embedder } from './embedder';
import { assertBgeModelsPresent } from './bgeModelFiles';
import type { BgeTask, BgeThreadData } from './bgeThread';

export interface BgeEmbeddersOptions {
  /** Holds `<model name>/model.onnx` and `tokenizer.json` for each language (SLUICE_MODEL_DIR). */
  modelDir: string;
  /** Threads, each with a session per language: one batch is split over all of them (SLUICE_MODEL_THREADS). */
  threads: number;
  /** Longer texts are cut to their first this many tokens, [CLS] and [SEP] included (at most 512). */
  maxTokens: number;
}

/** The model of one language: chunk texts are embedded as they are, queries with the model's instruction. */
export interface LanguageEmbedder extends Embedder {
  readonly language: TextLanguage;
  /** The vector of a search query: its text after the model's retrieval instruction. */
  embedQuery(query: string): Promise<number[]>;
}

export interface BgeEmbedders {
  of(language: TextLanguage): LanguageEmbedder;
  /** Stops the threads; a later embed() starts them again. */
  close(): Promise<void>;
}

/** bge's position embeddings end at 512. */
const MODEL_MAX_TOKENS = 512;
/**
 * WordPiece gives a piece per ≤ 16 characters except for a word over 100 characters (one [UNK]):
 * cut here so a huge text is not copied to a thread; the cut only ever falls beyond such words.
 */
const MAX_CHARS_PER_TOKEN = 16;
const RUNTIME_ENV = { ORT_DISABLE_TELEMETRY: '1' };
const THREAD_MODULE = path.join(__dirname, `bgeThread${path.extname(__filename)}`);
const TSX_THREAD = path.join(__dirname, '..', 'cpuPool', 'tsxThread.js');

/**
 * The second dense vector's embedders (bge-small-en/zh v1.5, int8, on the CPU, offline): one pool of
 * threads serves both languages, each thread loading a language's session on first use, so a process
 * that never embeds loads nothing. A batch is split into one contiguous part per thread.
 */
export function createBgeEmbedders(options: BgeEmbeddersOptions): BgeEmbedders {
  const files = assertBgeModelsPresent(options.modelDir);
  const threads = Math.max(1, options.threads);
  const maxTokens = Math.min(MODEL_MAX_TOKENS, options.maxTokens);
  const dimensions = { en: BGE_MODEL_IDENTITIES.en.dimension, zh: BGE_MODEL_IDENTITIES.zh.dimension };
  const workerData: BgeThreadData & { sluiceTaskModule: string } = {
    sluiceTaskModule: THREAD_MODULE,
    sluiceBge: { files, dimensions, maxTokens, runtimeEnv: RUNTIME_ENV },
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
      execArgv: [],
      atomics: 'disabled',
      recordTiming: false,
    }));
  const charLimit = maxTokens * MAX_CHARS_PER_TOKEN;

  async function embed(language: TextLanguage, texts: string[]): Promise<number[][]> {
    const cut = texts.map((text) => (text.length > charLimit ? text.slice(0, charLimit) : text));
    const parts = split(cut, threads);
    const outputs = await Promise.all(
      parts.map((part) => poolOf().run({ language, texts: part } satisfies BgeTask) as Promise<Float32Array>),
    );
    return outputs.flatMap((output, i) => rows(output, (parts[i] as string[]).length, dimensions[language]));
  }

  const embedders = Object.fromEntries(
    (Object.keys(BGE_MODEL_IDENTITIES) as TextLanguage[]).map((language) => {
      const identity = BGE_MODEL_IDENTITIES[language];
      const embedder: LanguageEmbedder = {
        language,
        model: identity.name,
        dimension: identity.dimension,
        embed: (texts) => embed(language, texts),
        async embedQuery(query) {
          const [vector] = await embed(language, [identity.queryPrefix + query]);
          return vector as number[];
        },
      };
      return [language, embedder];
    }),
  ) as Record<TextLanguage, LanguageEmbedder>;

  return {
    of: (language) => embedders[language],
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

function rows(output: Float32Array, expected: number, dimension: number): number[][] {
  if (output.length !== expected * dimension) {
    throw new Error(
      `the bge model returned ${output.length} values for ${expected} texts; expected ${expected * dimension}`,
    );
  }
  return Array.from({ length: expected }, (_, i) => Array.from(output.subarray(i * dimension, (i + 1) * dimension)));
}
