import { loadPpOcrEngine, type OcrEngine } from './ocrEngine';
import { ppOcrV4Files } from './ocrModels';

let loading: Promise<OcrEngine> | undefined;

/**
 * The process's OCR engine, loaded the first time a page needs it (~100 MB of models and
 * sessions): a parse process that only ever sees text documents never pays for it. A failed
 * load is retried by the next document rather than remembered.
 */
export function sharedOcrEngine(): Promise<OcrEngine> {
  loading ??= loadPpOcrEngine(ppOcrV4Files()).catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
