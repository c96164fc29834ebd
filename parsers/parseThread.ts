import { parentPort } from 'node:worker_threads';
import { SluiceError } from '../contracts/sluiceError';
import { convertFile } from './convertFile';
import type { SourceFileType } from './detectFileType';
import type { ParseLimits } from './parseLimits';

export interface ParseRequest {
  filePath: string;
  type: SourceFileType;
  limits: ParseLimits;
}

export type ThreadError =
  | { kind: 'classified'; code: string; message: string; permanent: boolean }
  | { kind: 'io'; code?: string; syscall?: string; message: string }
  | { kind: 'other'; message: string };

export type ParseReply = { ok: true; markdown: string } | { ok: false; error: ThreadError };

/** Entry of the parse thread started by parseToMarkdown: one request, one reply, then it is terminated. */
parentPort?.once('message', (request: ParseRequest) => {
  convertFile(request.filePath, request.type, request.limits).then(
    (markdown) => parentPort?.postMessage({ ok: true, markdown } satisfies ParseReply),
    (error: unknown) => parentPort?.postMessage({ ok: false, error: describe(error) } satisfies ParseReply),
  );
});

function describe(error: unknown): ThreadError {
  if (error instanceof SluiceError) return { kind: 'classified', code: error.code, message: error.message, permanent: error.permanent };
  const errno = error as NodeJS.ErrnoException;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof errno?.syscall === 'string') return { kind: 'io', code: errno.code, syscall: errno.syscall, message };
  return { kind: 'other', message };
}
