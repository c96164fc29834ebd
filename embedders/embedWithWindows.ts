import { MAX_WINDOWS, passageWindows } from '../chunker/passageWindows';
import type { Embedder } from './embedder';

/** Each text's vector and its passage windows' vectors (chunker/passageWindows.ts), from one embedding call. */
export interface TextsWithWindows {
  vectors: number[][];
  windows: number[][][];
}

/**
 * Embeds the texts and every passage window of each in one batch, and splits the result back: the
 * second dense vector's write (VECTORIZING) and the retrieval eval's index build share it. Throws
 * when the model returns another count of vectors than it was given texts.
 */
export async function embedWithWindows(
  embedder: Embedder,
  texts: string[],
  maxWindowsPerText = MAX_WINDOWS,
): Promise<TextsWithWindows> {
  const windowTexts = texts.map((text) => passageWindows(text, maxWindowsPerText));
  const all = [...texts, ...windowTexts.flat()];
  const vectors = await embedder.embed(all);
  if (vectors.length !== all.length) {
    throw new Error(`${embedder.model} returned ${vectors.length} vectors for ${all.length} texts`);
  }
  let next = texts.length;
  const windows = windowTexts.map((w) => {
    next += w.length;
    return vectors.slice(next - w.length, next);
  });
  return { vectors: vectors.slice(0, texts.length), windows };
}
