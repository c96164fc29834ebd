import path from 'node:path';
import type { ChunkerOptions } from '../chunker/chunkMarkdown';
import type { ChunkingLimits } from '../chunker/chunkWithPlan';
import type { Proposal, ProposeInput } from '../chunker/proposePlan';
import type { ChunkingPlan } from '../contracts/chunkingPlan';
import type { ChunkDraft, SparseVector } from '../contracts/chunk';
import type { ParsedDocument, ParseOptions } from '../parsers/convertFile';
import { isImageType, type SourceFileType } from '../parsers/detectFileType';
import type { ParseLimits } from '../parsers/parseLimits';
import type { ParseInput } from './parseChild';
import type { OcrPageStarted } from './childServer';
import { ProcessPool, type TaskMemory } from './processPool';
import type { ChunkInput, PlanChunkInput, SparseInput, TokenizeInput, TokenPlanEntries } from './tasks';
import { ThreadPool } from './threadPool';

/**
 * Every CPU stage over user content runs here, never on the worker's main thread, each task under
 * the per-document time limit. Parsing runs in warm child processes under a memory limit that
 * covers all of a document's memory (what a file decompresses into lives mostly outside the JS
 * heap); chunking, tokenizing and sparse weighting, whose input is the already capped markdown,
 * run in warm threads under the heap cap. Created once by the worker's composition root and
 * closed when the worker stops.
 */
export interface CpuPool {
  /** File → markdown. PARSE_TIMEOUT, FILE_TOO_LARGE (memory, heap, markdown cap), PARSE_ENGINE_FAILED (crash). */
  parse(filePath: string, type: SourceFileType): Promise<string>;
  /**
   * parse, with the pages OCR read (what CLEANING records) and, when asked, the pictures kept. Same
   * failures, OCR's page cap and page time limit included.
   */
  parseDocument(
    filePath: string,
    type: SourceFileType,
    options?: ParseOptions,
    /** Told as each page's OCR begins (from the parse process), for CLEANING's progress. */
    onOcrPage?: (started: OcrPageStarted) => void,
  ): Promise<ParsedDocument>;
  /** Markdown → chunk drafts. Limits hit → CHUNKING_FAILED. */
  chunk(documentId: string, markdown: string, options: ChunkerOptions): Promise<ChunkDraft[]>;
  /** Markdown → chunk drafts under a plan (chunker/chunkWithPlan.ts). Limits hit → CHUNKING_FAILED. */
  chunkWithPlan(
    documentId: string,
    markdown: string,
    plan: ChunkingPlan,
    limits: ChunkingLimits,
  ): Promise<ChunkDraft[]>;
  /** Parsed markdown → the recommended and resolved plan with its preview. Limits hit → CHUNKING_FAILED. */
  propose(input: ProposeInput): Promise<Proposal>;
  /** Chunk texts → [chunk id, terms] pairs. Limits hit → PRETOKENIZE_FAILED. */
  tokenize(chunks: readonly { chunk_id: string; text: string }[]): Promise<TokenPlanEntries>;
  /** Token lists → sparse vectors, in the same order. Limits hit → SPARSE_VECTORIZING_FAILED. */
  sparse(tokenLists: string[][]): Promise<SparseVector[]>;
  close(): Promise<void>;
}

export interface CpuPoolOptions {
  /** Threads, and parse processes, kept warm (the worker's SLUICE_CPU_THREADS, by default its cores). */
  threads: number;
  /** Time limit, heap and memory caps, and the guards parsing applies inside its process. */
  limits: ParseLimits;
  onError?: (error: Error) => void;
  /** Each parse's peak resident memory, as the kernel measured it (tests and benchmarks). */
  onParseMemory?: (memory: TaskMemory) => void;
}

/** PDFs and images are the types OCR may read, at seconds a page. */
function mayBeOcrd(type: SourceFileType): boolean {
  return type === 'pdf' || isImageType(type);
}

/** The modules as this process loaded its own code: compiled JavaScript, or TypeScript under tsx/Jest. */
const TASK_MODULE = path.join(__dirname, `tasks${path.extname(__filename)}`);
const PARSE_CHILD_MODULE = path.join(__dirname, `parseChild${path.extname(__filename)}`);

export function createCpuPool(options: CpuPoolOptions): CpuPool {
  const { limits } = options;
  const threads = new ThreadPool({
    taskModule: TASK_MODULE,
    threads: Math.max(1, options.threads),
    limits,
    // Its import graph holds the chunker and the tokenizer.
    warmTask: 'chunk',
    onError: options.onError,
  });
  const parsers = new ProcessPool({
    childModule: PARSE_CHILD_MODULE,
    processes: Math.max(1, options.threads),
    shortTaskReserve: 1,
    // A document that may be OCR'd (a long task) gains a page's limit for each page it OCRs, up to
    // the OCR document limit: a text PDF keeps SLUICE_PARSE_TIMEOUT.
    limits: { ...limits, ocrPageMs: limits.ocr.pageTimeoutMs, longTimeoutMs: limits.ocr.documentTimeoutMs },
    onTaskMemory: options.onParseMemory,
    onError: options.onError,
  });
  const stageFailures = (
    code: 'CHUNKING_FAILED' | 'PRETOKENIZE_FAILED' | 'SPARSE_VECTORIZING_FAILED',
    what: string,
  ) => ({ what, timeout: code, heap: code, crash: code });
  const parseDocument = (
    filePath: string,
    type: SourceFileType,
    options: ParseOptions = {},
    onOcrPage?: (started: OcrPageStarted) => void,
  ) =>
    parsers.run<ParsedDocument>(
      'parse',
      { filePath, type, limits, options } satisfies ParseInput,
      {
        what: `parsing the ${type} file`,
        timeout: 'PARSE_TIMEOUT',
        heap: 'FILE_TOO_LARGE',
        crash: 'PARSE_ENGINE_FAILED',
      },
      { long: mayBeOcrd(type), ...(onOcrPage ? { onOcrPage } : {}) },
    );
  return {
    parse: async (filePath, type) => (await parseDocument(filePath, type)).markdown,
    parseDocument,
    chunk: (documentId, markdown, chunkerOptions) =>
      threads.run<ChunkDraft[]>(
        'chunk',
        { documentId, markdown, options: chunkerOptions } satisfies ChunkInput,
        stageFailures('CHUNKING_FAILED', 'chunking the markdown'),
      ),
    chunkWithPlan: (documentId, markdown, plan, chunkLimits) =>
      threads.run<ChunkDraft[]>(
        'chunkPlan',
        { documentId, markdown, plan, limits: chunkLimits } satisfies PlanChunkInput,
        stageFailures('CHUNKING_FAILED', `chunking the markdown (${plan.strategy})`),
      ),
    propose: (input) =>
      threads.run<Proposal>('propose', input, stageFailures('CHUNKING_FAILED', 'proposing a chunking plan')),
    tokenize: (chunks) =>
      threads.run<TokenPlanEntries>(
        'tokenize',
        { chunks: chunks.map(({ chunk_id, text }) => ({ chunk_id, text })) } satisfies TokenizeInput,
        stageFailures('PRETOKENIZE_FAILED', `tokenizing ${chunks.length} chunks`),
      ),
    sparse: (tokenLists) =>
      threads.run<SparseVector[]>(
        'sparse',
        { tokenLists } satisfies SparseInput,
        stageFailures('SPARSE_VECTORIZING_FAILED', `weighting ${tokenLists.length} sparse vectors`),
      ),
    close: async () => {
      await Promise.all([threads.close(), parsers.close()]);
    },
  };
}
