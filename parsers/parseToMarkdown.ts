import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { isFailureCode } from '../contracts/failureCodes';
import { permanentError, SluiceError } from '../contracts/sluiceError';
import type { SourceFileType } from './detectFileType';
import { DEFAULT_PARSE_LIMITS, type ParseLimits } from './parseLimits';
import type { ParseReply, ParseRequest, ThreadError } from './parseThread';

/**
 * Parses a local file to markdown in a worker thread of its own. A thread is the only way to
 * enforce the per-document time limit on a parser that may loop synchronously (terminate() stops
 * even a busy thread), it caps the parse heap (a hostile file exhausts the thread, not the Temporal
 * worker), and everything the parser allocated is released when the thread ends.
 */
export async function parseToMarkdown(filePath: string, type: SourceFileType, limits: ParseLimits = DEFAULT_PARSE_LIMITS): Promise<string> {
  const worker = new Worker(bootstrapSource(), {
    eval: true,
    resourceLimits: { maxOldGenerationSizeMb: limits.maxHeapMb },
    // Not the parent's flags: under tsx they install its ESM loader, which re-transforms the
    // multi-megabyte pdf.js modules and triples the thread's memory. The bootstrap registers
    // what the thread needs.
    execArgv: [],
  });
  try {
    return await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(permanentError('PARSE_TIMEOUT', `parsing the ${type} file took longer than ${limits.timeoutMs} ms`));
      }, limits.timeoutMs);
      const settle = (action: () => void): void => {
        clearTimeout(timer);
        action();
      };
      worker.once('message', (reply: ParseReply) => settle(() => (reply.ok ? resolve(reply.markdown) : reject(revive(reply.error)))));
      worker.once('error', (error: Error & { code?: string }) => settle(() => reject(threadFailure(type, limits, error))));
      worker.once('exit', (code) => settle(() => reject(permanentError('PARSE_ENGINE_FAILED', `${type} parser thread exited (${code})`))));
      const request: ParseRequest = { filePath, type, limits };
      worker.postMessage(request);
    });
  } finally {
    await worker.terminate();
  }
}

/**
 * The thread runs the parser modules as this process loaded them: compiled JavaScript in a
 * build, TypeScript through tsx when running from source (the worker under tsx, or Jest, whose
 * transform does not reach other threads).
 */
function bootstrapSource(): string {
  const entry = path.join(__dirname, `parseThread${path.extname(__filename)}`);
  const register = entry.endsWith('.ts') ? `require(${JSON.stringify(require.resolve('tsx/cjs/api'))}).register();` : '';
  return `${register}require(${JSON.stringify(entry)});`;
}

function threadFailure(type: SourceFileType, limits: ParseLimits, error: Error & { code?: string }): SluiceError {
  if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return permanentError('FILE_TOO_LARGE', `parsing the ${type} file needs more than the ${limits.maxHeapMb} MB parse heap`, error);
  }
  return permanentError('PARSE_ENGINE_FAILED', `${type} parser crashed: ${error.message}`, error);
}

/** Classified errors cross the thread boundary as data; anything else stays an unclassified Error. */
function revive(error: ThreadError): Error {
  if (error.kind === 'classified' && isFailureCode(error.code)) return new SluiceError(error.code, error.message, error.permanent);
  const plain = new Error(error.message) as NodeJS.ErrnoException;
  if (error.kind === 'io') Object.assign(plain, { code: error.code, syscall: error.syscall });
  return plain;
}
